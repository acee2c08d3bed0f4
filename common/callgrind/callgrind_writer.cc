#include "common/callgrind/callgrind_writer.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/base/counted.h"
#include "common/base/flat_index.h"
#include "common/base/saturating.h"
#include "common/model/sink.h"

namespace proftools {
namespace {

struct NodeKey {
  std::string object, file, name;
  int64_t line = 0;
  uint64_t address = 0;
  bool operator<(const NodeKey& o) const {
    return std::tie(name, file, object, line, address) <
           std::tie(o.name, o.file, o.object, o.line, o.address);
  }
};

struct Node {
  NodeKey key;
  std::vector<int64_t> flat;
};

void AppendNumber(int64_t value, std::string* text) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  text->append(digits, end);
}

// Name compression: "(N) name" the first time, "(N)" after; nothing for an empty name (as
// pprof). Each node remembers its N, so that the names of the millions of call lines of a large
// profile are not hashed again.
class Names {
 public:
  explicit Names(size_t nodes) : memo_(nodes, kUnknown) {}

  void Append(uint32_t node, const std::string& name, std::string* text) {
    uint32_t& id = memo_[node];
    if (id == kUnknown) {
      if (name.empty()) {
        id = 0;
        return;
      }
      const auto [it, added] = ids_.emplace(name, static_cast<uint32_t>(ids_.size() + 1));
      id = it->second;
      if (added) {
        *text += '(';
        AppendNumber(id, text);
        *text += ") ";
        // A name is the rest of its line: line breaks in it are written as \n and \r.
        for (char c : name) {
          if (c == '\n') {
            *text += "\\n";
          } else if (c == '\r') {
            *text += "\\r";
          } else {
            *text += c;
          }
        }
        return;
      }
    }
    if (id == 0) return;
    *text += '(';
    AppendNumber(id, text);
    *text += ')';
  }

 private:
  static constexpr uint32_t kUnknown = UINT32_MAX;
  std::vector<uint32_t> memo_;
  std::unordered_map<std::string, uint32_t> ids_;
};

void AppendHex(uint64_t address, std::string* text) {
  char hex[24];
  const auto end = std::to_chars(hex, hex + sizeof hex, address, 16).ptr;
  *text += "0x";
  text->append(hex, end);
}

std::string Hex(uint64_t address) {
  std::string text;
  AppendHex(address, &text);
  return text;
}

// An address relative to `last` when that is shorter, as pprof writes them.
void AppendAddress(uint64_t last, uint64_t address, std::string* text) {
  if (address == last) {
    *text += '*';
    return;
  }
  char relative[24];
  const int64_t diff = static_cast<int64_t>(address - last);
  char* at = relative;
  if (diff > 0) *at++ = '+';
  at = std::to_chars(at, relative + sizeof relative, diff).ptr;
  char hex[24];
  const size_t hex_size = std::to_chars(hex, hex + sizeof hex, address, 16).ptr - hex + 2;
  if (static_cast<size_t>(at - relative) < hex_size) {
    text->append(relative, at);
  } else {
    AppendHex(address, text);
  }
}

// A value type as an event name: blanks would split the events: line.
std::string EventName(const ValueType& type) {
  std::string name = type.type;
  if (!type.unit.empty()) name += "(" + type.unit + ")";
  for (char& c : name) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  }
  return name.empty() ? "samples" : name;
}

class CallgrindWriter : public DefinitionKeepingSink {
 public:
  CallgrindWriter(ByteSink* out, std::string name, const WriteContext& context)
      : out_(out), name_(std::move(name)), context_(context) {}

  void OnSample(const Sample& sample) override {
    if (!sample.labels.empty()) ++labelled_;
    if (sample.time_nanos || sample.duration_nanos) ++timed_;
    // Samples are summed per stack here and walked once per stack at the end: callgrind keeps
    // no more than sums, and a profile has far fewer stacks than samples.
    const Stack* stack = defs_.stacks.Find(sample.stack_id);
    if (stack == nullptr || stack->location_ids.empty()) {
      ++unplaced_;
      return;
    }
    const auto [at, added] = stack_index_.emplace(sample.stack_id, stack_sums_.size());
    if (added) stack_sums_.emplace_back(sample.stack_id, std::vector<int64_t>());
    Add(&stack_sums_[at->second].second, sample.values);
  }

  void OnEnd() override {
    for (size_t i = 0; i < stack_sums_.size(); ++i) {
      AddStack(i, stack_sums_[i].first, stack_sums_[i].second);
    }
    // Each node's callees in the order of their node numbers.
    std::vector<size_t> first_edge(nodes_.size() + 1, 0);
    for (const Edge& edge : edges_) ++first_edge[edge.caller + 1];
    for (size_t n = 0; n < nodes_.size(); ++n) first_edge[n + 1] += first_edge[n];
    std::vector<uint32_t> callees(edges_.size());
    {
      std::vector<size_t> next(first_edge.begin(), first_edge.end() - 1);
      for (uint32_t e = 0; e < edges_.size(); ++e) callees[next[edges_[e].caller]++] = e;
    }
    for (size_t n = 0; n < nodes_.size(); ++n) {
      std::sort(callees.begin() + first_edge[n], callees.begin() + first_edge[n + 1],
                [&](uint32_t a, uint32_t b) { return edges_[a].callee < edges_[b].callee; });
    }
    const std::vector<ValueType>& types = header_.types;
    const int shown = header_.DefaultTypeIndex();
    std::vector<uint32_t> order(nodes_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    auto flat = [&](uint32_t n) {
      return shown < 0 || nodes_[n].flat.empty() ? 0 : nodes_[n].flat[static_cast<size_t>(shown)];
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (flat(a) != flat(b)) return flat(a) > flat(b);
      return nodes_[a].key < nodes_[b].key;
    });
    std::string text = "# callgrind format\npositions: instr line\nevents:";
    for (const ValueType& type : types) text += " " + EventName(type);
    if (types.empty()) text += " samples";
    text += "\n";
    // summary: and totals: (the sums of the cost lines): callgrind_annotate's percentages and
    // inclusive costs are relative to them (issue 43).
    std::vector<int64_t> totals(types.size(), 0);
    for (const Node& node : nodes_) Add(&totals, node.flat);
    if (!types.empty()) {
      text += "summary:";
      Values(totals, &text);
    }
    Names objects(nodes_.size()), files(nodes_.size()), functions(nodes_.size());
    const Node* previous = nullptr;
    uint64_t last = 0;
    for (uint32_t n : order) {
      const Node& node = nodes_[n];
      if (previous == nullptr || previous->key.object != node.key.object ||
          previous->key.file != node.key.file || previous->key.name != node.key.name) {
        text += "\nob=";
        objects.Append(n, node.key.object, &text);
        text += "\nfl=";
        files.Append(n, node.key.file, &text);
        text += "\nfn=";
        functions.Append(n, node.key.name, &text);
        text += '\n';
      }
      if (previous == nullptr) {
        AppendHex(node.key.address, &text);
      } else {
        AppendAddress(last, node.key.address, &text);
      }
      text += ' ';
      AppendNumber(node.key.line, &text);
      Values(node.flat, &text);
      last = node.key.address;
      for (size_t k = first_edge[n]; k < first_edge[n + 1]; ++k) {
        const Edge& edge = edges_[callees[k]];
        const uint32_t callee = edge.callee;
        const std::vector<int64_t>& values = edge.values;
        const Node& target = nodes_[callee];
        // A callee in another object says so: without cob= it is taken to be in the caller's
        // object, another function to KCachegrind (a kernel function called from libc became
        // libc's own, and the inclusive costs of its callers were wrong).
        if (target.key.object != node.key.object) {
          text += "cob=";
          objects.Append(callee, target.key.object, &text);
          text += '\n';
        }
        text += "cfl=";
        files.Append(callee, target.key.file, &text);
        text += "\ncfn=";
        functions.Append(callee, target.key.name, &text);
        text += "\ncalls=1 ";
        AppendAddress(last, target.key.address, &text);
        text += ' ';
        AppendNumber(target.key.line, &text);
        text += "\n* *";
        Values(values, &text);
      }
      previous = &node;
      if (text.size() > (size_t{1} << 20)) {
        out_->Write(text);
        text.clear();
      }
    }
    if (!types.empty()) {
      text += "\ntotals:";
      Values(totals, &text);
    }
    out_->Write(text);
    if (labelled_ > 0) {
      context_.Warn(name_, Counted(labelled_, "sample's labels", "samples' labels") +
                               " left out (callgrind has no labels)");
    }
    if (timed_ > 0) {
      context_.Warn(name_,
                    Counted(timed_, "sample's time or duration", "samples' times or durations") +
                        " left out (callgrind has no times)");
    }
    if (unplaced_ > 0) {
      context_.Warn(name_,
                    Counted(unplaced_, "sample", "samples") +
                        " with an empty stack left out (callgrind costs belong to functions)");
    }
  }

 private:
  // The stack's values on its leaf and on each of its calls, once per call whatever the
  // recursion; `ordinal` numbers the stacks.
  void AddStack(size_t ordinal, uint64_t stack_id, const std::vector<int64_t>& values) {
    const std::vector<uint32_t>& path = Path(stack_id);  // not empty: OnSample checked
    Add(&nodes_[path.back()].flat, values);
    for (size_t i = 1; i < path.size(); ++i) {
      bool added;
      const uint32_t e = edge_index_.FindOrAdd((uint64_t{path[i - 1]} << 32) | path[i],
                                               static_cast<uint32_t>(edges_.size()), &added);
      if (added) edges_.push_back(Edge{path[i - 1], path[i], {}, SIZE_MAX});
      Edge& edge = edges_[e];
      if (edge.last_stack == ordinal) continue;
      edge.last_stack = ordinal;
      Add(&edge.values, values);
    }
  }

  void Add(std::vector<int64_t>* sums, const std::vector<int64_t>& values) {
    if (sums->empty()) sums->assign(header_.types.size(), 0);
    for (size_t i = 0; i < values.size() && i < sums->size(); ++i) {
      AddSaturating(&(*sums)[i], values[i]);
    }
  }

  void Values(const std::vector<int64_t>& values, std::string* text) const {
    for (size_t i = 0; i < header_.types.size(); ++i) {
      *text += ' ';
      AppendNumber(i < values.size() ? values[i] : 0, text);
    }
    *text += '\n';
  }

  uint32_t NodeOf(NodeKey key) {
    const auto [it, added] = node_of_.emplace(key, static_cast<uint32_t>(nodes_.size()));
    if (added) nodes_.push_back(Node{std::move(key), {}});
    return it->second;
  }

  // The stack's frames as nodes, outermost first.
  const std::vector<uint32_t>& Path(uint64_t stack_id) {
    const auto found = paths_.find(stack_id);
    if (found != paths_.end()) return found->second;
    std::vector<uint32_t> path;
    const Stack* stack = defs_.stacks.Find(stack_id);
    for (auto it = stack->location_ids.rbegin(); it != stack->location_ids.rend(); ++it) {
      const std::vector<uint32_t>& nodes = LocationNodes(*it);
      path.insert(path.end(), nodes.begin(), nodes.end());
    }
    return paths_.emplace(stack_id, std::move(path)).first->second;
  }

  // A location's frames as nodes, outermost first; each location is looked up once.
  const std::vector<uint32_t>& LocationNodes(uint64_t location_id) {
    const auto found = location_nodes_.find(location_id);
    if (found != location_nodes_.end()) return found->second;
    std::vector<uint32_t> nodes;
    const Location* location = defs_.locations.Find(location_id);
    const Mapping* mapping =
        location->mapping_id == 0 ? nullptr : defs_.mappings.Find(location->mapping_id);
    if (location->lines.empty()) {  // an address only: a node named by it
      nodes.push_back(
          NodeOf({mapping ? mapping->file : "", "", Hex(location->address), 0, location->address}));
    }
    for (auto line = location->lines.rbegin(); line != location->lines.rend(); ++line) {
      const proftools::Function* function = defs_.functions.Find(line->function_id);
      nodes.push_back(NodeOf({mapping ? mapping->file : "", function->file, function->name,
                              line->line, location->address}));
    }
    return location_nodes_.emplace(location_id, std::move(nodes)).first->second;
  }

  ByteSink* out_;
  std::string name_;
  const WriteContext& context_;
  std::vector<Node> nodes_;
  std::map<NodeKey, uint32_t> node_of_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> paths_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> location_nodes_;
  std::unordered_map<uint64_t, size_t> stack_index_;  // stack id -> its place in stack_sums_
  std::vector<std::pair<uint64_t, std::vector<int64_t>>> stack_sums_;
  struct Edge {
    uint32_t caller, callee;
    std::vector<int64_t> values;  // inclusive: the samples through the call
    size_t last_stack;            // the last stack that added to it
  };
  std::vector<Edge> edges_;
  FlatIndex edge_index_;  // (caller << 32 | callee) -> edges_
  uint64_t labelled_ = 0, timed_ = 0, unplaced_ = 0;
};

void WriteCallgrind(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  CallgrindWriter writer(out, profile.name(), context);
  profile.Read(&writer);
}

}  // namespace

const WriterSpec kCallgrindWriter = {
    "callgrind",      "prof2callgrind", "the callgrind format (KCachegrind, callgrind_annotate)",
    /*binary=*/false,
    /*gzip=*/false,   ".callgrind",     {},
    WriteCallgrind,
};

}  // namespace proftools
