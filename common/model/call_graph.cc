#include "common/model/call_graph.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/base/decimal.h"
#include "common/base/index_span.h"
#include "common/base/saturating.h"

namespace proftools {
namespace {

// `count` zeros at the end of `values`: a value or two a function or edge, where resize's
// general fill cost some 70 instructions a call (a pstats graph's 330,000 functions and edges).
void AppendZeros(std::vector<int64_t>* values, size_t count) {
  for (size_t i = 0; i < count; ++i) values->push_back(0);
}

// Empties vectors and gives their memory back.
template <typename... Vectors>
void Release(Vectors&... vectors) {
  ((vectors = Vectors()), ...);
}

void AddAll(int64_t* sums, size_t size, const int64_t* values, size_t count) {
  for (size_t i = 0; i < count && i < size; ++i) AddSaturating(&sums[i], values[i]);
}

// Splits `total` among `shares` (not all 0) by largest remainders: each gets the floor of its
// exact part, the rest go one by one to the largest fractions (ties to the earlier), so the parts
// sum to `total` exactly and do not depend on anything but the shares' order.
// `parts` and `fractions` are the caller's, reused: a call per function and edge.
void Apportion(int64_t total, const std::vector<long double>& shares,
               std::vector<int64_t>* parts_out,
               std::vector<std::pair<long double, size_t>>* fractions_out) {
  long double sum = 0;
  for (long double s : shares) sum += s;  // finite and positive: give() checked
  std::vector<int64_t>& parts = *parts_out;
  parts.assign(shares.size(), 0);
  std::vector<std::pair<long double, size_t>>& fractions = *fractions_out;
  fractions.clear();
  int64_t given = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    long double exact = static_cast<long double>(total) * (shares[i] / sum);
    if (!(exact >= 0)) exact = 0;  // NaN too
    if (exact > static_cast<long double>(total)) exact = static_cast<long double>(total);
    long double whole = std::floor(exact);
    if (whole < 0) whole = 0;
    if (whole > static_cast<long double>(total - given))
      whole = static_cast<long double>(total - given);
    parts[i] = static_cast<int64_t>(whole);
    given += parts[i];
    fractions.push_back({exact - whole, i});
  }
  const auto larger = [](const auto& a, const auto& b) { return a.first > b.first; };
  if (fractions.size() <= 16) {
    // A function has a place or two in most trees: insertion sort, stable as stable_sort is,
    // without the buffer stable_sort allocates and frees at each of hundreds of thousands of
    // calls.
    for (size_t i = 1; i < fractions.size(); ++i) {
      const auto moving = fractions[i];
      size_t j = i;
      for (; j > 0 && larger(moving, fractions[j - 1]); --j) fractions[j] = fractions[j - 1];
      fractions[j] = moving;
    }
  } else {
    std::stable_sort(fractions.begin(), fractions.end(), larger);
  }
  // Rounding leaves at most one unit a share; anything more (precision lost on huge totals)
  // goes to the largest fraction's share at once, so this loop is bounded.
  if (total - given > static_cast<int64_t>(fractions.size())) {
    parts[fractions[0].second] += total - given - static_cast<int64_t>(fractions.size());
    given = total - static_cast<int64_t>(fractions.size());
  }
  for (size_t k = 0; given < total; k = (k + 1) % fractions.size()) {
    ++parts[fractions[k].second];
    ++given;
  }
}

}  // namespace

uint32_t CallGraph::Function(const std::string& object, const std::string& name,
                             const std::string& file) {
  CheckNotSealed();
  made_by_function_ = true;
  std::string base = name;
  // callgrind's recursion levels (--separate-recs): f'2, f'3 ... are f.
  const size_t quote = base.rfind('\'');
  if (quote != std::string::npos && quote + 1 < base.size() &&
      base.find_first_not_of("0123456789", quote + 1) == std::string::npos) {
    base.resize(quote);
  }
  // A function without a name (fn= with nothing after it) is unknown code, as valgrind names it:
  // prof text's functions have names.
  if (base.empty()) base = "???";
  std::string& key = key_scratch_;
  key = object;
  key += '\0';
  key += base;
  bool added = false;
  std::string_view stored;
  const uint32_t function = FunctionOfKey(&added, &stored);
  if (added) {
    Node& node = functions_.emplace_back();
    node.object = stored.substr(0, object.size());
    node.name = stored.substr(object.size() + 1);
    node.file = keys_.Store(file);
    AppendZeros(&self_, events_);
  } else if (functions_[function].file.empty()) {
    functions_[function].file = keys_.Store(file);
  }
  return function;
}

uint32_t CallGraph::FunctionOfKey(bool* added, std::string_view* stored) {
  // Kept in the arena first, given back when the key was known (ViewIndex keeps views).
  *stored = keys_.Store(key_scratch_);
  const uint64_t id = function_of_.Intern(*stored, added);
  if (!*added) keys_.Unstore(*stored);
  return static_cast<uint32_t>(id - 1);  // ids 1, 2, ... in the order functions_ grows
}

void CallGraph::Scale(size_t event, int64_t factor) {
  if (event >= events_) return;
  for (size_t f = 0; f < functions_.size(); ++f) {
    MultiplySaturating(&self_[f * events_ + event], factor);
  }
  for (Edge& edge : edges_) MultiplySaturating(&edge_costs_[edge.costs + event], factor);
  if (event < self_totals_.size()) MultiplySaturating(&self_totals_[event], factor);
}

std::string CallGraph::CutWarning(const std::string& built_from, const std::string& kept) {
  return "the call tree built from the " + built_from + " was cut at " + std::to_string(kMaxDepth) +
         " frames deep, " + std::to_string(kMaxNodes) + " nodes or " + std::to_string(kMaxFrames) +
         " frames in all (or " + std::to_string(kMaxWork) + " edges looked at): each function's " +
         kept + " is kept, spread over the stacks the tree reached";
}

uint32_t CallGraph::FunctionAt(std::string_view name, std::string_view file, int64_t start_line) {
  CheckNotSealed();
  made_by_function_at_ = true;
  unnamed_or_unknown_ = unnamed_or_unknown_ || name.empty() || name == "???";
  // A key no Function key equals: those hold one \0, this one two. Views in: the strings made
  // are the new function's own (a hundred thousand of a pstats file's).
  std::string& key = key_scratch_;
  key.assign(name);
  key += '\0';
  key.append(file);
  key += '\0';
  if (start_line < 0) key += '-';
  char digits[kMaxDecimalDigits];
  const uint64_t magnitude =
      start_line < 0 ? 0 - static_cast<uint64_t>(start_line) : static_cast<uint64_t>(start_line);
  key.append(digits, static_cast<size_t>(WriteDecimal(digits, magnitude) - digits));
  bool added = false;
  std::string_view stored;
  const uint32_t function = FunctionOfKey(&added, &stored);
  if (added) {
    Node& node = functions_.emplace_back();
    node.name = name.empty() ? std::string_view("???") : stored.substr(0, name.size());
    node.file = stored.substr(name.size() + 1, file.size());
    node.start_line = start_line;
    AppendZeros(&self_, events_);
  }
  return function;
}

void CallGraph::Seal() {
  function_of_ = ViewIndex();
  std::string().swap(key_scratch_);
  edge_of_ = FlatIndex();
  sealed_ = true;
}

void CallGraph::CheckNotSealed() const {
  if (sealed_) throw std::logic_error("CallGraph: a function or call added after Seal or Emit");
}

void CallGraph::Reserve(size_t functions, size_t edges) {
  functions_.reserve(functions);
  function_of_.Reserve(functions);
  self_.reserve(functions * events_);
  edges_.reserve(edges);
  edge_costs_.reserve(edges * events_);
}

void CallGraph::AddSelf(uint32_t function, const int64_t* costs, size_t count) {
  if (self_totals_.empty()) self_totals_.assign(events_, 0);
  AddAll(&self_[size_t{function} * events_], events_, costs, count);
  AddAll(self_totals_.data(), self_totals_.size(), costs, count);
}

bool CallGraph::AddSelfCalls(uint32_t caller, uint32_t callee, uint64_t count) {
  if (caller != callee) return false;
  Node& node = functions_[caller];
  // A function's calls to itself: their inclusive cost is already its own self cost and that
  // of what it calls, so the tree folds them into the function (only the count is kept).
  node.self_calls = node.self_calls + count < count ? UINT64_MAX : node.self_calls + count;
  return true;
}

size_t CallGraph::NewEdge(uint32_t caller, uint32_t callee) {
  edges_.push_back(Edge{caller, callee, 0, edge_costs_.size()});
  AppendZeros(&edge_costs_, events_);
  return edges_.size() - 1;
}

void CallGraph::AddToEdge(size_t index, uint64_t count, const int64_t* costs, size_t cost_count) {
  Edge& edge = edges_[index];
  edge.calls = edge.calls + count < count ? UINT64_MAX : edge.calls + count;
  for (size_t i = 0; i < cost_count && i < events_; ++i) {
    AddSaturating(&edge_costs_[edge.costs + i], costs[i]);
  }
}

void CallGraph::AddCall(uint32_t caller, uint32_t callee, uint64_t count, const int64_t* costs,
                        size_t cost_count) {
  CheckNotSealed();
  has_calls_ = true;
  if (AddSelfCalls(caller, callee, count)) return;
  for (bool added; indexed_edges_ < edges_.size(); ++indexed_edges_) {
    const Edge& edge = edges_[indexed_edges_];
    edge_of_.FindOrAdd((uint64_t{edge.caller} << 32) | edge.callee,
                       static_cast<uint32_t>(indexed_edges_), &added);
  }
  bool added = false;
  const uint32_t index = edge_of_.FindOrAdd((uint64_t{caller} << 32) | callee,
                                            static_cast<uint32_t>(edges_.size()), &added);
  if (added) {
    NewEdge(caller, callee);
    indexed_edges_ = edges_.size();
  }
  AddToEdge(index, count, costs, cost_count);
}

void CallGraph::AddNewCall(uint32_t caller, uint32_t callee, uint64_t count,
                           std::initializer_list<int64_t> costs) {
  CheckNotSealed();
  has_calls_ = true;
  if (AddSelfCalls(caller, callee, count)) return;
  AddToEdge(NewEdge(caller, callee), count, costs.begin(), costs.size());
}

// The expanded call tree: nodes in depth-first order, each a function under its parent node.
struct CallGraph::Tree {
  std::vector<uint32_t> function;
  std::vector<int64_t> parent;           // -1 for a root
  std::vector<long double> ratio;        // per node and event: its weight / function total
  std::vector<long double> calls_share;  // the calls of the edge into it, exact part
  std::vector<long double> flow;         // its weight in the first event with any
  std::vector<uint32_t> edge;            // the edge (in edges_) that made it; kNoEdge for a root
  static constexpr uint32_t kNoEdge = IndexGroups::kNoGroup;
};

bool CallGraph::Emit(Interner* interner, ProfileSink* sink, uint64_t source_id, bool with_calls,
                     const std::vector<Label>& labels) {
  if (emitted_) throw std::logic_error("CallGraph: Emit after Emit");
  emitted_ = sealed_ = true;
  const size_t n = functions_.size();
  const size_t e_count = events_;
  // Each caller's edges, in order of first appearance.
  const IndexGroups edges_by_caller(n, edges_.size(), [&](size_t i) { return edges_[i].caller; });
  // The same edges side by side, a caller's one after the other, with their costs: the tree
  // reads a node's edges in turn, and from edges_ by index each was a cache miss of its own.
  struct OutEdge {
    uint32_t callee, index;  // index: in edges_
    uint64_t calls;
  };
  std::vector<size_t> out_begin(n + 1, 0);
  std::vector<OutEdge> out(edges_.size());
  std::vector<int64_t> out_costs(edges_.size() * e_count);
  // Whether a function calls another by two edges (AddNewCall trusts its caller): two nodes
  // under one parent would then be one stack.
  bool callee_repeats = false;
  std::vector<uint32_t> last_caller(n, UINT32_MAX);
  for (uint32_t f = 0; f < n; ++f) {
    size_t k = out_begin[f];
    for (uint32_t at : edges_by_caller.of(f)) {
      const Edge& edge = edges_[at];
      callee_repeats = callee_repeats || last_caller[edge.callee] == f;
      last_caller[edge.callee] = f;
      out[k] = OutEdge{edge.callee, at, edge.calls};
      std::copy_n(inclusive(edge), e_count, out_costs.begin() + k * e_count);
      ++k;
    }
    out_begin[f + 1] = k;
  }
  const auto out_cost = [&](size_t k) { return &out_costs[k * e_count]; };
  // Totals: a function's self cost and the inclusive costs of its calls; what reaches it
  // through calls; the rest is its weight as a root.
  std::vector<long double> total(n * e_count, 0), incoming(n * e_count, 0);
  for (size_t f = 0; f < n; ++f) {
    for (size_t e = 0; e < e_count; ++e) total[f * e_count + e] += self(f)[e];
    for (size_t k = out_begin[f]; k < out_begin[f + 1]; ++k) {
      for (size_t e = 0; e < e_count; ++e) {
        total[f * e_count + e] += out_cost(k)[e];
        incoming[out[k].callee * e_count + e] += out_cost(k)[e];
      }
    }
  }

  Tree tree;
  {
    // Room for the nodes a graph of this size likely makes (each function under a few of its
    // callers; never more than kMaxNodes, and a few more for the roots of what it misses): a
    // dense graph's 200,000 nodes grew six vectors by doubling.
    const size_t nodes = std::min<size_t>(kMaxNodes, 2 * (n + edges_.size()));
    tree.function.reserve(nodes);
    tree.parent.reserve(nodes);
    tree.edge.reserve(nodes);
    tree.ratio.reserve(nodes * e_count);
    tree.calls_share.reserve(nodes);
    tree.flow.reserve(nodes);
  }
  bool cut = false;
  std::vector<uint32_t> on_stack(n, 0);
  auto add_node = [&](uint32_t f, int64_t parent, uint32_t edge,
                      const std::vector<long double>& weight, long double calls) {
    tree.function.push_back(f);
    tree.parent.push_back(parent);
    tree.edge.push_back(edge);
    long double flow = 0;
    bool flow_set = false;
    for (size_t e = 0; e < e_count; ++e) {
      const long double t = total[f * e_count + e];
      // A ratio above 1 (negative costs) could grow without bound down a path: kept finite.
      const long double r = t > 0 ? weight[e] / t : 0;
      tree.ratio.push_back(std::isfinite(r) && r > 0 ? r : 0);
      if (!flow_set && t > 0) {
        flow = weight[e];
        flow_set = true;
      }
    }
    tree.calls_share.push_back(calls);
    tree.flow.push_back(flow);
  };
  // Depth-first from each root, without recursion: the path's nodes and their next edge.
  struct Open {
    size_t node;
    size_t next_edge;
  };
  std::vector<Open> path;
  std::vector<long double> weight(e_count);
  uint64_t work = 0, frames = 0;
  bool full = false;  // no more nodes or frames: no root is begun
  // Each event's total, for what is negligible (0 when nothing has a self cost).
  std::vector<int64_t> self_total = self_totals_;
  self_total.resize(e_count, 0);
  // The largest share of an event's total any edge of a function carries: a place whose
  // ratios make even that negligible has only negligible children, and its edges are not
  // looked at (the dense graphs that need the bound are those with the most edges).
  std::vector<long double> largest_out(n, 0);
  for (uint32_t f = 0; f < n; ++f) {
    for (size_t k = out_begin[f]; k < out_begin[f + 1]; ++k) {
      for (size_t e = 0; e < e_count; ++e) {
        largest_out[f] =
            std::max(largest_out[f], std::fabs(static_cast<long double>(out_cost(k)[e])) /
                                         std::max<long double>(std::fabs(self_total[e]), 1));
      }
    }
  }
  // The edge to look at first in the node just made: none when all its children would be
  // negligible (calls too: an edge's calls there are its calls times the first ratio).
  auto first_edge = [&](size_t node) -> size_t {
    const uint32_t f = tree.function[node];
    long double largest_ratio = 0, calls_ratio = 0;
    bool first = true;
    for (size_t e = 0; e < e_count; ++e) {
      const long double r = tree.ratio[node * e_count + e];
      largest_ratio = std::max(largest_ratio, r);
      if (first && total[f * e_count + e] > 0) {
        calls_ratio = r;
        first = false;
      }
    }
    const bool negligible =
        calls_ratio <= kNegligible && largest_ratio * largest_out[f] <= kNegligible;
    return negligible ? out_begin[f + 1] - out_begin[f] : 0;
  };
  for (uint32_t root = 0; root < n; ++root) {
    bool any = false;
    for (size_t e = 0; e < e_count; ++e) {
      const long double w = total[root * e_count + e] - incoming[root * e_count + e];
      weight[e] = w > 0 ? w : 0;
      any = any || weight[e] > 0;
    }
    if (!any) continue;
    if (full || tree.function.size() >= kMaxNodes || frames >= kMaxFrames) {
      cut = true;
      break;
    }
    if (work > kMaxWork) break;
    ++frames;
    add_node(root, -1, Tree::kNoEdge, weight, 0);
    path.clear();
    path.push_back({tree.function.size() - 1, first_edge(tree.function.size() - 1)});
    ++on_stack[root];
    while (!path.empty()) {
      Open& open = path.back();
      const uint32_t f = tree.function[open.node];
      if (open.next_edge == out_begin[f + 1] - out_begin[f]) {
        --on_stack[f];
        path.pop_back();
        continue;
      }
      const size_t k = out_begin[f] + open.next_edge++;
      const OutEdge& edge = out[k];
      if (++work > kMaxWork) {  // edges looked at: wide graphs cost time even when cut
        cut = true;
        break;
      }
      if (on_stack[edge.callee] != 0) continue;  // a cycle: not expanded again
      bool carries = false;
      long double calls = 0;
      bool first = true;
      for (size_t e = 0; e < e_count; ++e) {
        const long double r = tree.ratio[open.node * e_count + e];
        weight[e] = out_cost(k)[e] * r;
        carries = carries || weight[e] > 0;
        if (first && total[f * e_count + e] > 0) {
          calls = static_cast<long double>(edge.calls) * r;
          first = false;
        }
      }
      if (!carries && calls <= 0) continue;
      bool negligible = calls <= kNegligible * static_cast<long double>(edge.calls);
      for (size_t e = 0; e < e_count && negligible; ++e) {
        negligible = std::fabs(weight[e]) <=
                     kNegligible * std::max<long double>(std::fabs(self_total[e]), 1);
      }
      if (negligible) continue;
      if (tree.function.size() >= kMaxNodes || frames + path.size() + 1 > kMaxFrames) {
        cut = full = true;
        break;
      }
      if (path.size() >= kMaxDepth) {
        cut = true;
        continue;
      }
      const size_t parent = open.node;  // `open` dangles once path grows
      frames += path.size() + 1;
      add_node(edge.callee, static_cast<int64_t>(parent), edge.index, weight, calls);
      path.push_back({tree.function.size() - 1, first_edge(tree.function.size() - 1)});
      ++on_stack[edge.callee];
    }
  }

  // A function the tree never reached that has a cost or calls gets a root of its own.
  std::vector<bool> placed(n, false);
  for (uint32_t f : tree.function) placed[f] = true;
  auto ensure_place = [&](uint32_t f) {
    if (placed[f]) return;
    placed[f] = true;
    tree.function.push_back(f);
    tree.parent.push_back(-1);
    tree.edge.push_back(Tree::kNoEdge);
    tree.ratio.insert(tree.ratio.end(), e_count, 0);
    tree.calls_share.push_back(0);
    tree.flow.push_back(0);
  };
  for (uint32_t f = 0; f < n; ++f) {
    const Node& node = functions_[f];
    bool needed = node.self_calls != 0;
    for (size_t e = 0; e < e_count; ++e) needed = needed || self(f)[e] != 0;
    if (needed) ensure_place(f);
    for (size_t k = out_begin[f]; k < out_begin[f + 1]; ++k) {
      if (out[k].calls != 0) ensure_place(out[k].callee);
    }
  }
  // Each function's places in the tree, in tree order.
  const IndexGroups places(n, tree.function.size(), [&](size_t i) { return tree.function[i]; });
  const size_t values = e_count + (with_calls ? 1 : 0);
  std::vector<int64_t> assigned(tree.function.size() * values, 0);
  std::vector<long double> shares;
  std::vector<int64_t> parts;
  std::vector<std::pair<long double, size_t>> fractions;
  auto give = [&](IndexSpan nodes, int64_t amount, size_t column) {
    if (nodes.size() == 1) {  // one place: it takes it all, whatever its share
      AddSaturating(&assigned[nodes[0] * values + column], amount);
      return;
    }
    long double sum = 0;
    for (long double& s : shares) {
      if (!(s > 0) || !std::isfinite(s)) s = 0;  // NaN, infinite or negative: no share
      sum += s;
    }
    if (!(sum > 0) || !std::isfinite(sum)) {  // no share at all: the first place takes it
      AddSaturating(&assigned[nodes[0] * values + column], amount);
      return;
    }
    // A negative cost (a difference of profiles, as pprof writes it) is split as its magnitude.
    const bool negative = amount < 0;
    const int64_t magnitude = negative ? (amount == INT64_MIN ? INT64_MAX : -amount) : amount;
    Apportion(magnitude, shares, &parts, &fractions);
    for (size_t k = 0; k < nodes.size(); ++k) {
      AddSaturating(&assigned[nodes[k] * values + column], negative ? -parts[k] : parts[k]);
    }
  };
  for (uint32_t f = 0; f < n; ++f) {
    const Node& node = functions_[f];
    const IndexSpan at = places.of(f);
    for (size_t e = 0; e < e_count; ++e) {
      if (self(f)[e] == 0) continue;
      shares.clear();
      for (uint32_t place : at) shares.push_back(std::fabs(tree.ratio[place * e_count + e]));
      give(at, self(f)[e], e);
    }
    if (!with_calls) continue;
    if (node.self_calls != 0) {
      shares.clear();
      for (uint32_t place : at) shares.push_back(tree.flow[place]);
      give(at, static_cast<int64_t>(std::min<uint64_t>(node.self_calls, INT64_MAX)), e_count);
    }
  }
  if (with_calls) {
    // An edge's calls: on the nodes it made (in tree order), else (a cycle, a cut) on the
    // callee's places.
    const IndexGroups made(edges_.size(), tree.function.size(),
                           [&](size_t i) { return tree.edge[i]; });
    // In the edges' order (each edge's calls are apportioned on their own, and call counts
    // sum alike in any order): the edges and the nodes each made are read in order, not by
    // caller, at random.
    for (uint32_t index = 0; index < edges_.size(); ++index) {
      const Edge& edge = edges_[index];
      if (edge.calls == 0) continue;
      shares.clear();
      IndexSpan to = made.of(index);
      if (to.size() != 0) {
        for (uint32_t node : to) shares.push_back(tree.calls_share[node]);
      } else {
        to = places.of(edge.callee);
        for (uint32_t place : to) shares.push_back(tree.flow[place]);
      }
      give(to, static_cast<int64_t>(std::min<uint64_t>(edge.calls, INT64_MAX)), e_count);
    }
  }

  // The stacks below need the tree's shape and each node's values: the rest (a third of what
  // Emit holds) goes now, so that the definitions the sink keeps take its place rather than
  // pages the kernel must zero.
  Release(out, out_costs, out_begin, last_caller, total, incoming, largest_out, on_stack, placed,
          tree.ratio, tree.calls_share, tree.flow, tree.edge, shares, parts, fractions, weight,
          path, edges_, edge_costs_, self_);
  // Definitions and samples, nodes in order: a function and a location each at most, a stack
  // a node at most.
  sink->OnExpect(ExpectedDefinitions{n, n, tree.function.size()});
  std::vector<uint64_t> location(n, 0);
  // One mapping, function and location, refilled for each function: their strings and line
  // keep their room (a hundred thousand functions made four allocations each).
  proftools::Mapping mapping;
  mapping.has_functions = true;
  proftools::Function function;
  proftools::Location loc;
  loc.lines.resize(1);
  // A graph of FunctionAt's functions (no objects, no mappings) whose keys are their contents
  // (no "" beside "???") has functions of distinct contents, each with a location of its own:
  // given to an interner without any, each is new (Interner::NewFunction), as the stacks below.
  const bool new_definitions = !made_by_function_ && !unnamed_or_unknown_ &&
                               interner->function_count() == 0 && interner->location_count() == 0;
  auto location_of = [&](uint32_t f) {
    if (location[f] != 0) return location[f];
    const Node& node = functions_[f];
    mapping.file = node.object;
    const uint64_t mapping_id = node.object.empty() ? 0 : interner->Mapping(mapping);
    function.name = node.name;
    function.system_name = node.name;
    function.file = node.file;
    function.start_line = node.start_line;
    loc.mapping_id = mapping_id;
    if (new_definitions) {
      loc.lines[0] = Line{interner->NewFunction(function), 0, 0};
      location[f] = interner->NewLocation(loc);
    } else {
      loc.lines[0] = Line{interner->Function(function), 0, 0};
      location[f] = interner->Location(loc);
    }
    return location[f];
  };
  std::vector<uint64_t> stack;
  Sample sample;
  sample.source_id = source_id;
  sample.labels = labels;
  // The path from the root to the node at hand, by depth: the nodes come depth first, so a
  // node's path is its parent's and itself, read in order (walking up the parents read two
  // arrays at random a frame, and a tree's stacks hold millions of frames). Each depth's
  // location is looked up when a stack first needs it, so that locations are defined in the
  // order the stacks, leaf first, meet them.
  std::vector<uint32_t> depth(tree.function.size());
  std::vector<uint32_t> path_function;
  std::vector<uint64_t> path_location;
  // The tree tells its stacks apart itself, when the interner has none yet (Interner::
  // NewStack). Where each function's location is its own and a function's callees are its
  // own, no two nodes are one stack (the roots are of distinct functions, as are the children
  // of each node): each node's stack is new. Otherwise each prefix of the path at hand is
  // numbered by content, as its parent prefix's number and its last location (two nodes of one
  // content, under one parent: two functions of one location), one lookup a node rather than a
  // hash of every stack's frames (millions). The lookup, a cache miss a node, was a third of
  // the loop.
  const bool new_stacks = interner->stack_count() == 0;
  const bool stack_a_node = new_stacks && !LocationsMayRepeat() && !callee_repeats;
  const bool numbered = new_stacks && !stack_a_node;
  std::vector<uint32_t> path_prefix;            // by depth: the prefix's number, 0 until looked up
  FlatIndex prefix_of;                          // parent's number << 32 | location
  std::vector<uint64_t> stack_of_prefix(1, 0);  // by number: its stack id, or 0
  if (numbered) prefix_of.Reserve(tree.function.size());
  for (size_t i = 0; i < tree.function.size(); ++i) {
    const int64_t parent = tree.parent[i];
    depth[i] = parent < 0 ? 0 : depth[parent] + 1;
    path_function.resize(depth[i] + 1);
    path_location.resize(depth[i] + 1);
    path_function[depth[i]] = tree.function[i];
    path_location[depth[i]] = location[tree.function[i]];
    if (numbered) {
      path_prefix.resize(depth[i] + 1);
      path_prefix[depth[i]] = 0;
    }
    bool any = false;
    for (size_t v = 0; v < values; ++v) any = any || assigned[i * values + v] != 0;
    if (!any) continue;
    stack.clear();
    for (size_t d = depth[i] + 1; d-- > 0;) {
      if (path_location[d] == 0) path_location[d] = location_of(path_function[d]);
      stack.push_back(path_location[d]);
    }
    if (stack_a_node) {
      sample.stack_id = interner->NewStack(&stack);
    } else if (numbered) {
      // The prefixes not numbered yet are the deepest (the node itself, and ancestors that
      // made no sample): found from the node up, numbered down.
      size_t d = depth[i];
      while (d > 0 && path_prefix[d - 1] == 0) --d;
      for (; d <= depth[i]; ++d) {
        bool added = false;
        const uint64_t above = d == 0 ? 0 : path_prefix[d - 1];
        // Location ids count the interner's locations: under 2^32 (a function's is tens of
        // bytes of memory).
        if (path_location[d] > UINT32_MAX) throw std::length_error("CallGraph: 2^32 locations");
        path_prefix[d] = prefix_of.FindOrAdd((above << 32) | path_location[d],
                                             static_cast<uint32_t>(stack_of_prefix.size()), &added);
        if (added) stack_of_prefix.push_back(0);
      }
      uint64_t& id = stack_of_prefix[path_prefix[depth[i]]];
      if (id == 0) id = interner->NewStack(&stack);
      sample.stack_id = id;
    } else {
      sample.stack_id = interner->Stack(stack);
    }
    sample.values.assign(assigned.begin() + i * values, assigned.begin() + (i + 1) * values);
    sink->OnSample(sample);
  }
  return cut;
}

}  // namespace proftools
