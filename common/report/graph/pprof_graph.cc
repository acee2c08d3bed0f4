#include "common/report/graph/pprof_graph.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <tuple>

#include <re2/re2.h>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/utf8.h"
#include "common/report/graph/pprof_units.h"
#include "common/report/source/source_files.h"

namespace proftools {
namespace {

std::string Hex16(uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(address));
  return text;
}

// pprof's joinLabels: every string label as key:value, sorted, joined by a DOT line break.
// Each is escaped for DOT (pprof leaves quotes raw, which breaks the file).
std::string JoinLabels(const std::vector<Label>& labels) {
  std::vector<std::string> parts;
  for (const Label& label : labels) {
    if (!label.is_num) parts.push_back(EscapeForDot(label.key + ":" + label.str));
  }
  std::sort(parts.begin(), parts.end());
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : "\\n") + part;
  return joined;
}

}  // namespace

std::string EscapeForDot(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    const bool noncharacter = IsXmlNoncharacterAt(text, i);  // U+FFFE, U+FFFF
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\l";
    } else if ((byte < 0x20 && c != '\t' && c != '\r') || noncharacter) {
      // As pprof would write it but for these bytes: a NUL ends the DOT Graphviz reads, and the
      // others are no characters of the XML it draws. Shown as \xHH, as the reports show them.
      for (size_t k = 0; k < (noncharacter ? 3u : 1u); ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        out += "\\\\x";
        out += kHex[b >> 4];
        out += kHex[b & 15];
      }
      if (noncharacter) i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

void SortGraphTags(std::vector<GraphTag>* tags, bool flat) {
  std::sort(tags->begin(), tags->end(), [flat](const GraphTag& a, const GraphTag& b) {
    if (!flat && a.cum != b.cum) return SaturatingAbs(a.cum) > SaturatingAbs(b.cum);
    if (a.flat != b.flat) return SaturatingAbs(a.flat) > SaturatingAbs(b.flat);
    return a.name < b.name;
  });
}

bool GraphNodeInfo::operator<(const GraphNodeInfo& o) const {
  return std::tie(name, address, file, start_line, line, objfile) <
         std::tie(o.name, o.address, o.file, o.start_line, o.line, o.objfile);
}

bool GraphNodeInfo::operator==(const GraphNodeInfo& o) const {
  return std::tie(name, address, file, start_line, line, objfile) ==
         std::tie(o.name, o.address, o.file, o.start_line, o.line, o.objfile);
}

std::vector<std::string> GraphNodeInfo::NameComponents() const {
  std::vector<std::string> parts;
  if (address != 0) parts.push_back(Hex16(address));
  if (!name.empty()) parts.push_back(name);
  if (line != 0) {
    parts.push_back(file + ":" + std::to_string(line));
  } else if (!file.empty()) {
    parts.push_back(file);
  } else if (!name.empty()) {
  } else if (!objfile.empty()) {
    parts.push_back("[" + BaseName(objfile) + "]");
  } else {
    parts.push_back("<unknown>");
  }
  return parts;
}

std::string GraphNodeInfo::PrintableName() const {
  std::string out;
  for (const std::string& part : NameComponents()) out += (out.empty() ? "" : " ") + part;
  return out;
}

// pprof orders otherwise equal nodes by fmt.Sprint of their NodeInfo.
static std::string SprintInfo(const GraphNodeInfo& i) {
  return "{" + i.name + "  " + std::to_string(i.address) + " " + i.file + " " +
         std::to_string(i.start_line) + " " + std::to_string(i.line) + " " + i.objfile + "}";
}

std::string ShortenFunctionName(const std::string& name) {
  // The same rules as pprof's graph package: a C++ anonymous namespace and Go module versions
  // removed, then a Go package path, a Java package and arguments, or a C++ namespace path.
  static const RE2 anonymous(R"(^\(anonymous namespace\)::)");
  static const RE2 go_version(R"(^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$)");
  static const RE2 go_path(R"(^(?:[\w\-\.]+/)+(.+))");
  static const RE2 java(
      R"(^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*(?:\$\d+)?))(?:\(|$))");
  static const RE2 cpp(R"(^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?))");
  std::string f = name;
  RE2::Replace(&f, anonymous, "");
  RE2::Replace(&f, go_version, "\\1\\2");
  std::string kept;
  for (const RE2* rule : {&go_path, &java, &cpp}) {
    if (RE2::PartialMatch(f, *rule, &kept)) return kept;
  }
  return f;
}

PprofGraph::PprofGraph(const StackTotals& totals, const PprofGraphOptions& options,
                       PprofGraphStacksShare* share) {
  share_ = share;
  if (share == nullptr || !Reuse(totals, options, share->Get())) {
    Collect(totals, options);
    if (share != nullptr) share->Put(stacks_);
  }
  SumValues(totals, options.value_index);
  // pprof's newTrimmedGraph for -dot (internal/report): each step rebuilds the graph from the
  // samples, keeping the nodes chosen so far.
  // pprof builds the whole graph first to find the nodes below the node fraction: only the
  // nodes' values are needed for that, the edges come with the graph of the nodes kept.
  std::vector<bool> kept_infos;  // empty: every node
  NodeValues(&node_flat_, &node_cum_);
  const std::vector<int64_t>& flat = node_flat_;
  const std::vector<int64_t>& cum = node_cum_;
  int64_t flat_sum = 0;
  for (int64_t value : flat) AddSaturating(&flat_sum, value);
  const int64_t node_cutoff =
      SaturatingAbs(static_cast<int64_t>(static_cast<double>(flat_sum) * options.node_fraction));
  const int64_t edge_cutoff =
      SaturatingAbs(static_cast<int64_t>(static_cast<double>(flat_sum) * options.edge_fraction));
  if (node_cutoff > 0) {
    std::vector<bool> kept(stacks_->infos.size(), false);
    size_t present = 0, kept_count = 0;
    for (size_t i = 0; i < stacks_->infos.size(); ++i) {
      if (flat[i] == 0 && cum[i] == 0) continue;
      ++present;
      kept[i] = SaturatingAbs(cum[i]) >= node_cutoff;
      kept_count += kept[i];
    }
    if (kept_count != present) {
      dropped_nodes_ = present - kept_count;
      kept_infos = std::move(kept);
    }
  }
  if (options.node_count > 0) {
    // The choice of the top nodes needs the graph's nodes in order, which needs its edges'
    // weights, but not the edges themselves: a graph that is not kept is ranked, not built.
    Rank(kept_infos);
    nodes_before_count_ = nodes_.size();
    // Low tags would sway the choice. The choice looks at no more than the first node_count
    // nodes.
    AddTags(kept_infos, options.node_count);
    TrimTags(node_cutoff);
    const std::vector<bool> top = TopNodes(options.node_count);
    size_t count = 0;
    for (bool kept : top) count += kept;
    const bool every_node = count == nodes_.size();
    if (!every_node) kept_infos = top;
    Build(kept_infos);
    SortNodes();
    if (every_node) {
      // pprof trims the edges before choosing the nodes (the choice does not look at them);
      // the edges dropped then are not counted among those dropped at the end.
      TrimEdges(edge_cutoff);
    }
  } else {
    Build(kept_infos);
    nodes_before_count_ = nodes_.size();
    SortNodes();
  }
  AddTags(kept_infos, SIZE_MAX);
  TrimTags(node_cutoff);
  dropped_edges_ = TrimEdges(edge_cutoff);
  RemoveRedundantEdges();
}

bool PprofGraph::Reuse(const StackTotals& totals, const PprofGraphOptions& options,
                       std::shared_ptr<const PprofGraphStacks> shared) {
  const std::vector<StackTotals::Entry>& entries = totals.entries();
  if (shared == nullptr || shared->granularity != options.granularity ||
      shared->entry_of_totals.size() != entries.size()) {
    return false;
  }
  const size_t mine = static_cast<size_t>(options.value_index);
  const size_t theirs = static_cast<size_t>(shared->value_index);
  for (const StackTotals::Entry& entry : entries) {
    if ((entry.values[mine] == 0) != (entry.values[theirs] == 0)) return false;
  }
  stacks_ = std::move(shared);
  return true;
}

void PprofGraph::SumValues(const StackTotals& totals, int value_index) {
  const std::vector<StackTotals::Entry>& entries = totals.entries();
  entry_values_.assign(stacks_->entries.size(), 0);
  set_values_.assign(stacks_->value_sets.size(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    const uint32_t entry = stacks_->entry_of_totals[i];
    if (entry == UINT32_MAX) continue;
    const int64_t value = entries[i].values[static_cast<size_t>(value_index)];
    AddSaturating(&entry_values_[entry], value);
    const uint32_t set_value = stacks_->set_value_of_totals[i];
    if (set_value != UINT32_MAX) set_values_[set_value] = value;
  }
}

void PprofGraph::Collect(const StackTotals& totals, const PprofGraphOptions& options) {
  auto stacks = std::make_shared<PprofGraphStacks>();
  stacks->granularity = options.granularity;
  stacks->value_index = options.value_index;
  std::vector<GraphNodeInfo>& infos = stacks->infos;
  std::vector<Entry>& entries = stacks->entries;
  std::vector<uint32_t>& frames = stacks->frames;
  std::vector<LabelSet>& label_sets = stacks->label_sets;
  const Definitions& defs = totals.defs();
  const Granularity g = options.granularity;
  const bool by_address = g == Granularity::kAddresses;
  const bool by_line =
      g == Granularity::kLines || g == Granularity::kAddresses || g == Granularity::kFileLines;
  const bool with_name = g != Granularity::kFiles && g != Granularity::kFileLines;
  const bool with_file = g != Granularity::kFunctions;
  std::map<GraphNodeInfo, size_t> info_index;
  auto intern = [&](GraphNodeInfo info) {
    // Frames hold an info's number in 31 bits, WalkEdges' steps in 30.
    if (infos.size() >= (uint32_t{1} << 30))
      throw ProfError("", "more than 2^30 nodes for the call graph");
    auto [it, added] = info_index.emplace(info, infos.size());
    if (added) infos.push_back(std::move(info));
    return it->second;
  };
  // Per location: its frames (info << 1 | inlined), innermost first, at [first, last) of
  // location_frames: open addressing and one array (a table of vectors was a cache miss or two
  // a frame of every stack).
  FlatIndex location_index;  // location id -> its span
  std::vector<std::pair<uint32_t, uint32_t>> location_spans;
  std::vector<uint32_t> location_frames;
  auto location_nodes = [&](uint64_t id) -> std::pair<uint32_t, uint32_t> {
    bool added_location = false;
    const uint32_t known =
        location_index.FindOrAdd(id, static_cast<uint32_t>(location_spans.size()), &added_location);
    if (!added_location) return location_spans[known];
    std::vector<std::pair<size_t, bool>> nodes;
    const Location* location = defs.locations.Find(id);
    const Mapping* mapping = location != nullptr && location->mapping_id != 0
                                 ? defs.mappings.Find(location->mapping_id)
                                 : nullptr;
    const std::string objfile = mapping != nullptr ? mapping->file : "";
    const uint64_t address = location != nullptr && by_address ? location->address : 0;
    if (location == nullptr || location->lines.empty()) {
      GraphNodeInfo info;
      info.address = address;
      info.objfile = objfile;
      nodes.emplace_back(intern(info), false);
    } else {
      for (size_t i = 0; i < location->lines.size(); ++i) {
        const Line& line = location->lines[i];
        if (g == Granularity::kFileLines && line.line == 0) continue;
        const Function* function = defs.functions.Find(line.function_id);
        GraphNodeInfo info;
        info.address = address;
        if (function == nullptr) {
          info.objfile = objfile;
        } else {
          info.line = by_line ? line.line : 0;
          if (with_name) info.name = function->name;
          if (with_file && !function->file.empty()) info.file = CleanPath(function->file);
          if (info.name.empty()) {
            info.objfile = objfile;
            info.start_line = function->start_line;
          }
        }
        nodes.emplace_back(intern(info), i + 1 < location->lines.size());
      }
    }
    const uint32_t first = static_cast<uint32_t>(location_frames.size());
    for (const auto& [info, inlined] : nodes) {
      location_frames.push_back(static_cast<uint32_t>(info << 1 | inlined));
    }
    location_spans.emplace_back(first, static_cast<uint32_t>(location_frames.size()));
    return location_spans.back();
  };
  label_sets.emplace_back();  // 0: none
  std::unordered_map<std::string, uint32_t> label_set_index;
  // By the totals' label number: the index in label_sets (0: none), or kUnknown until met.
  constexpr uint32_t kUnknown = UINT32_MAX;
  std::vector<uint32_t> set_of_label_id;
  auto set_of = [&](const StackTotals::Entry& totals_entry) -> uint32_t {
    if (totals_entry.label_id >= set_of_label_id.size()) {
      set_of_label_id.resize(totals_entry.label_id + 1, kUnknown);
    }
    uint32_t& known = set_of_label_id[totals_entry.label_id];
    if (known != kUnknown) return known;
    const std::vector<Label>& labels = totals.label_set(totals_entry);
    LabelSet set;
    set.joined = JoinLabels(labels);
    for (const Label& label : labels) {
      // As pprof's graph, only the `bytes` label becomes numeric tags.
      if (label.is_num && label.key == "bytes") {
        set.bytes.emplace_back(label.num, label.unit.empty() ? "bytes" : label.unit);
      }
    }
    if (set.joined.empty() && set.bytes.empty()) return known = 0;
    std::string key = set.joined;
    for (const auto& [number, unit] : set.bytes) key += '\0' + std::to_string(number) + ' ' + unit;
    auto [index, new_set] = label_set_index.emplace(key, label_sets.size());
    if (new_set) label_sets.push_back(std::move(set));
    return known = index->second;
  };
  FlatIndex entry_of_stack;  // stack id -> index in entries
  // (entry, label set, entry of the totals), ordered by entry at the end.
  struct SetValue {
    uint32_t entry;
    uint32_t set;
    uint32_t totals_entry;
  };
  std::vector<SetValue> set_values;
  const std::vector<StackTotals::Entry>& totals_entries = totals.entries();
  if (totals_entries.size() >= UINT32_MAX) {
    throw ProfError("", "more than 4 billion stacks for the call graph");
  }
  stacks->entry_of_totals.assign(totals_entries.size(), UINT32_MAX);
  stacks->set_value_of_totals.assign(totals_entries.size(), UINT32_MAX);
  for (size_t i = 0; i < totals_entries.size(); ++i) {
    const StackTotals::Entry& totals_entry = totals_entries[i];
    const int64_t value = totals_entry.values[options.value_index];
    if (value == 0) continue;
    const Stack* stack = defs.stacks.Find(totals_entry.stack_id);
    if (stack == nullptr) continue;
    bool added = false;
    const uint32_t at = entry_of_stack.FindOrAdd(totals_entry.stack_id,
                                                 static_cast<uint32_t>(entries.size()), &added);
    if (added) {
      entries.emplace_back();
      Entry& entry = entries.back();
      entry.first_frame = frames.size();
      for (auto it = stack->location_ids.rbegin(); it != stack->location_ids.rend(); ++it) {
        const auto [first, last] = location_nodes(*it);
        for (uint32_t k = last; k > first; --k) frames.push_back(location_frames[k - 1]);
      }
      entry.end_frame = frames.size();
    }
    stacks->entry_of_totals[i] = at;
    const uint32_t set = set_of(totals_entry);
    if (set != 0) set_values.push_back(SetValue{at, set, static_cast<uint32_t>(i)});
  }
  // Each entry's values by label set, in the order they came, as a range of set_values_.
  std::vector<size_t> start(entries.size() + 1, 0);
  for (const SetValue& v : set_values) ++start[v.entry + 1];
  for (size_t e = 0; e < entries.size(); ++e) {
    start[e + 1] += start[e];
    entries[e].first_set = start[e];
    entries[e].end_set = start[e + 1];
  }
  stacks->value_sets.resize(set_values.size());
  for (const SetValue& v : set_values) {
    const size_t at = start[v.entry]++;
    stacks->value_sets[at] = v.set;
    stacks->set_value_of_totals[v.totals_entry] = static_cast<uint32_t>(at);
  }
  stacks_ = std::move(stacks);
}

std::vector<bool> PprofGraph::KeptSet(const std::vector<size_t>& node_indices) const {
  std::vector<bool> kept(stacks_->infos.size(), false);
  for (size_t i : node_indices) kept[nodes_[i].info] = true;
  return kept;
}

void PprofGraph::MakeTags(GraphNode* node,
                          const std::vector<std::pair<uint32_t, TagSums>>& sums) const {
  for (const auto& [index, tag_sums] : sums) {
    const LabelSet& set = stacks_->label_sets[index];
    if (!set.joined.empty()) {
      GraphTag& tag = node->label_tags[set.joined];
      tag.name = set.joined;
      AddSaturating(&tag.flat, tag_sums.flat);
      AddSaturating(&tag.cum, tag_sums.cum);
    }
    std::map<std::string, GraphTag>& numeric = node->numeric_tags[set.joined];
    for (const auto& [number, unit] : set.bytes) {
      const std::string name = PprofScaledLabel(number, unit, "minimum");
      GraphTag& tag = numeric[name];
      if (tag.name.empty()) {
        tag.name = name;
        tag.unit = unit;
        tag.value = number;
      }
      AddSaturating(&tag.flat, tag_sums.flat);
      AddSaturating(&tag.cum, tag_sums.cum);
    }
  }
}

void PprofGraph::EraseEdge(size_t edge) {
  GraphEdge& e = edges_[edge];
  auto drop = [edge](std::vector<size_t>* list) {
    list->erase(std::find(list->begin(), list->end(), edge));
  };
  drop(&nodes_[e.src].out);
  drop(&nodes_[e.dest].in);
  e.weight = kErased;
}

std::shared_ptr<const PprofGraphStacks::PlacedSteps> PprofGraph::PlaceSteps(
    const std::vector<bool>& kept) const {
  // Every call of a stack (a kept node to the next kept one) is a step, and an edge is the steps
  // of one (caller, callee). The steps are placed by caller (a counting sort: the stacks are
  // walked twice, to count, then to place), and each caller's steps, in walk order, are summed
  // by callee in arrays indexed by callee (WalkEdges): each edge's weight (each entry once,
  // whatever the recursion) with sequential passes and tables that stay in cache. The whole
  // graph can have an edge every few frames (838,848 for the million-sample benchmark's 2
  // million frames): looking each frame's edge up in a table was three cache misses a frame,
  // and sorting the steps by edge most of a graph's time. The places depend on the stacks and
  // the kept nodes only: a graph of another type sharing the stacks takes them when its kept
  // nodes are the same.
  if (share_ != nullptr) {
    std::lock_guard<std::mutex> lock(stacks_->placed_mutex);
    for (const auto& placed : stacks_->placed) {
      if (placed->kept == kept) return placed;
    }
  }
  const size_t n_infos = stacks_->infos.size();
  // (Fewer entries than 2^32: Collect checked the totals' entries, from which they come.)
  const std::vector<Entry>& entries = stacks_->entries;
  // Calls on_step(caller, callee << 2 | flags, entry) for each step, in walk order.
  auto walk = [&](auto on_step) {
    for (size_t e = 0; e < entries.size(); ++e) {
      size_t parent = SIZE_MAX;
      bool residual = false;
      for (const uint32_t frame : FramesOf(entries[e])) {
        const size_t n = frame >> 1;
        const bool inlined = frame & 1;
        if (!kept.empty() && !kept[n]) {
          residual = true;
          continue;
        }
        if (parent != SIZE_MAX && n != parent) {
          on_step(parent, static_cast<uint32_t>(n << 2 | size_t{residual} << 1 | size_t{inlined}),
                  static_cast<uint32_t>(e));
        }
        parent = n;
        residual = false;
      }
    }
  };
  auto placed = std::make_shared<PprofGraphStacks::PlacedSteps>();
  placed->kept = kept;
  std::vector<size_t>& start = placed->start;
  start.assign(n_infos + 1, 0);
  walk([&](size_t caller, uint32_t, uint32_t) { ++start[caller + 1]; });
  for (size_t n = 0; n < n_infos; ++n) start[n + 1] += start[n];
  placed->steps.resize(start[n_infos]);
  {
    std::vector<size_t> next(start.begin(), start.end() - 1);
    walk([&](size_t caller, uint32_t callee_flags, uint32_t entry) {
      placed->steps[next[caller]++] = PprofGraphStacks::Step{callee_flags, entry};
    });
  }
  if (share_ != nullptr) {
    // Kept for the other types' graphs: the whole graph's (for the ranking) and the kept
    // nodes' (for the graph drawn), the latest few.
    std::lock_guard<std::mutex> lock(stacks_->placed_mutex);
    if (stacks_->placed.size() >= 4) stacks_->placed.erase(stacks_->placed.begin());
    stacks_->placed.push_back(placed);
  }
  return placed;
}

template <typename OnEdge>
void PprofGraph::WalkEdges(const std::vector<bool>& kept, OnEdge on_edge) {
  const size_t n_infos = stacks_->infos.size();
  // The nodes' values: those of the kept nodes (what a walk of the kept frames gives them: each
  // entry once to each node of its stack, its flat value to its last frame's node when kept).
  for (size_t n = 0; n < n_infos; ++n) {
    if (!kept.empty() && !kept[n]) continue;
    nodes_[n].flat = node_flat_[n];
    nodes_[n].cum = node_cum_[n];
  }
  const std::shared_ptr<const PprofGraphStacks::PlacedSteps> placed = PlaceSteps(kept);
  const std::vector<size_t>& start = placed->start;
  const std::vector<PprofGraphStacks::Step>& steps = placed->steps;
  // Per caller, by callee: the weight, the last entry added (UINT32_MAX: none yet), and the
  // flags: residual when any entry's first step on the edge is, inlined when every one is;
  // the callees met, as bits, read in order (sorting each caller's callees was a tenth of this).
  std::vector<int64_t> weight(n_infos, 0);
  std::vector<uint32_t> last_entry(n_infos, UINT32_MAX);
  std::vector<uint8_t> residual(n_infos, 0), inlined(n_infos, 1);
  std::vector<uint64_t> met((n_infos + 63) / 64, 0);
  for (size_t caller = 0; caller < n_infos; ++caller) {
    if (start[caller] == start[caller + 1]) continue;
    size_t lowest_word = met.size(), highest_word = 0;
    for (size_t s = start[caller]; s < start[caller + 1]; ++s) {
      const uint32_t callee = steps[s].callee_flags >> 2;
      if (last_entry[callee] == steps[s].entry) continue;  // each edge once per sample
      if (last_entry[callee] == UINT32_MAX) {
        met[callee / 64] |= uint64_t{1} << (callee % 64);
        lowest_word = std::min<size_t>(lowest_word, callee / 64);
        highest_word = std::max<size_t>(highest_word, callee / 64);
      }
      last_entry[callee] = steps[s].entry;
      AddSaturating(&weight[callee], entry_values_[steps[s].entry]);
      residual[callee] |= (steps[s].callee_flags >> 1) & 1;
      inlined[callee] &= steps[s].callee_flags & 1;
    }
    for (size_t w = lowest_word; w <= highest_word; ++w) {
      for (uint64_t bits = met[w]; bits != 0; bits &= bits - 1) {
        const size_t callee = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
        on_edge(
            GraphEdge{caller, callee, weight[callee], residual[callee] != 0, inlined[callee] != 0});
        weight[callee] = 0;
        last_entry[callee] = UINT32_MAX;
        residual[callee] = 0;
        inlined[callee] = 1;
      }
      met[w] = 0;
    }
  }
}

void PprofGraph::BuildEdges(const std::vector<bool>& kept) {
  WalkEdges(kept, [this](const GraphEdge& edge) { edges_.push_back(edge); });
  std::vector<uint32_t> in_count(nodes_.size(), 0), out_count(nodes_.size(), 0);
  for (const GraphEdge& edge : edges_) {
    ++out_count[edge.src];
    ++in_count[edge.dest];
  }
  for (size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i].in.reserve(in_count[i]);
    nodes_[i].out.reserve(out_count[i]);
  }
  for (size_t e = 0; e < edges_.size(); ++e) {
    nodes_[edges_[e].src].out.push_back(e);
    nodes_[edges_[e].dest].in.push_back(e);
  }
}

void PprofGraph::Build(const std::vector<bool>& kept) {
  // Nodes indexed by info while building; those left with no value are removed at the end.
  nodes_.assign(stacks_->infos.size(), GraphNode());
  for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i].info = i;
  edges_.clear();
  has_tags_ = false;
  BuildEdges(kept);
  // Keep the nodes with a value, renumbered, and their edges.
  std::vector<size_t> renumber(nodes_.size(), SIZE_MAX);
  std::vector<GraphNode> kept_nodes;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].flat == 0 && nodes_[i].cum == 0) continue;
    renumber[i] = kept_nodes.size();
    kept_nodes.push_back(std::move(nodes_[i]));
  }
  // An edge to a node whose values cancel out (a difference) goes with the node.
  bool orphans = false;
  for (GraphEdge& edge : edges_) {
    edge.src = renumber[edge.src];
    edge.dest = renumber[edge.dest];
    if (edge.src == SIZE_MAX || edge.dest == SIZE_MAX) {
      edge.weight = kErased;
      orphans = true;
    }
  }
  nodes_ = std::move(kept_nodes);
  if (orphans) {
    for (GraphNode& node : nodes_) {
      for (std::vector<size_t>* list : {&node.in, &node.out}) {
        list->erase(std::remove_if(list->begin(), list->end(), [&](size_t e) { return !live(e); }),
                    list->end());
      }
    }
  }
}

void PprofGraph::NodeValues(std::vector<int64_t>* flat, std::vector<int64_t>* cum) const {
  flat->assign(stacks_->infos.size(), 0);
  cum->assign(stacks_->infos.size(), 0);
  std::vector<size_t> seen_node(stacks_->infos.size(), SIZE_MAX);
  for (size_t e = 0; e < stacks_->entries.size(); ++e) {
    const Entry& entry = stacks_->entries[e];
    const Frames frames = FramesOf(entry);
    for (const uint32_t frame : frames) {
      const size_t n = frame >> 1;
      if (seen_node[n] == e) continue;
      seen_node[n] = e;
      AddSaturating(&(*cum)[n], entry_values_[e]);
    }
    if (!frames.empty()) AddSaturating(&(*flat)[frames.back() >> 1], entry_values_[e]);
  }
}

void PprofGraph::AddTags(const std::vector<bool>& kept, size_t limit) {
  if (has_tags_) return;
  has_tags_ = true;
  if (stacks_->label_sets.size() <= 1) return;
  // Only the first `limit` nodes get tags: the others are not looked at.
  const size_t tagged = std::min(limit, nodes_.size());
  std::vector<uint32_t> node_of_info(stacks_->infos.size(), UINT32_MAX);
  for (size_t i = 0; i < tagged; ++i) node_of_info[nodes_[i].info] = static_cast<uint32_t>(i);
  // The sums by (node, label set): in an array when there are few enough pairs (the top nodes
  // and a few threads' label sets), else in a table.
  const size_t sets = stacks_->label_sets.size();
  const bool dense = tagged * sets <= (size_t{1} << 20);
  std::vector<TagSums> dense_sums(dense ? tagged * sets : 0);
  std::vector<uint8_t> dense_met(dense ? tagged * sets : 0, 0);
  FlatIndex index;  // (node << 32 | label set) -> position in sums
  std::vector<std::pair<uint64_t, TagSums>> sums;
  auto sums_of = [&](size_t node, uint32_t set) -> TagSums& {
    if (dense) {
      dense_met[node * sets + set] = 1;
      return dense_sums[node * sets + set];
    }
    const uint64_t key = static_cast<uint64_t>(node) << 32 | set;
    bool added;
    const uint32_t at = index.FindOrAdd(key, static_cast<uint32_t>(sums.size()), &added);
    if (added) sums.emplace_back(key, TagSums());
    return sums[at].second;
  };
  // A sample's cumulative value goes to each tagged node of its stack once (nodes are kept
  // nodes); its flat value to its last frame's node when that frame is kept (a frame not kept
  // after the last kept one puts it on no node).
  std::vector<uint32_t> seen_in(tagged, UINT32_MAX);
  std::vector<uint32_t> cum_nodes;
  for (size_t e = 0; e < stacks_->entries.size(); ++e) {
    const Entry& entry = stacks_->entries[e];
    if (entry.first_set == entry.end_set) continue;
    cum_nodes.clear();
    const Frames frames = FramesOf(entry);
    for (const uint32_t frame : frames) {
      const uint32_t node = node_of_info[frame >> 1];
      if (node == UINT32_MAX || seen_in[node] == e) continue;
      seen_in[node] = static_cast<uint32_t>(e);
      cum_nodes.push_back(node);
    }
    uint32_t leaf_node = UINT32_MAX;
    if (!frames.empty() && (kept.empty() || kept[frames.back() >> 1])) {
      leaf_node = node_of_info[frames.back() >> 1];
    }
    for (size_t v = entry.first_set; v < entry.end_set; ++v) {
      const uint32_t set = stacks_->value_sets[v];
      const int64_t value = set_values_[v];
      for (const uint32_t node : cum_nodes) AddSaturating(&sums_of(node, set).cum, value);
      if (leaf_node != UINT32_MAX) AddSaturating(&sums_of(leaf_node, set).flat, value);
    }
  }
  if (dense) {
    for (size_t k = 0; k < dense_sums.size(); ++k) {
      if (dense_met[k]) sums.emplace_back(uint64_t{k / sets} << 32 | k % sets, dense_sums[k]);
    }
  }
  // Per node, in an order that does not depend on the table's.
  std::sort(sums.begin(), sums.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint32_t, TagSums>> node_sums;
  for (size_t i = 0; i < sums.size();) {
    const size_t node = sums[i].first >> 32;
    node_sums.clear();
    for (; i < sums.size() && (sums[i].first >> 32) == node; ++i) {
      node_sums.emplace_back(static_cast<uint32_t>(sums[i].first), sums[i].second);
    }
    MakeTags(&nodes_[node], node_sums);
  }
}

namespace {

// An edge's ends (node indices) and weight: what the entropy order looks at.
struct WeightedEdge {
  uint32_t src, dest;
  int64_t weight;
};

// pprof's EntropyOrder score of every node (by index): the entropy of its in-edges' weights
// and of its out-edges' and own flat value (1 for a side with no edges), times its cumulative
// value, plus its flat value. pprof's edgeEntropyScore for every node at once, in its two
// passes (totals, then terms); each node's edges are met in the order of the graph's edges,
// as its lists have them. Edges to nodes without a value are left out, as Build erases them.
std::vector<int64_t> EntropyScores(const std::vector<GraphNode>& nodes,
                                   const std::vector<WeightedEdge>& edges) {
  const size_t n_nodes = nodes.size();
  auto present = [&](size_t n) { return nodes[n].flat != 0 || nodes[n].cum != 0; };
  std::vector<uint32_t> in_count(n_nodes, 0), out_count(n_nodes, 0);
  std::vector<int64_t> in_total(n_nodes, 0), out_total(n_nodes, 0);
  for (size_t n = 0; n < n_nodes; ++n) out_total[n] = nodes[n].flat;
  for (const WeightedEdge& edge : edges) {
    if (!present(edge.src) || !present(edge.dest)) continue;
    ++out_count[edge.src];
    ++in_count[edge.dest];
    if (edge.weight > 0) {
      AddSaturating(&out_total[edge.src], SaturatingAbs(edge.weight));
      AddSaturating(&in_total[edge.dest], SaturatingAbs(edge.weight));
    }
  }
  std::vector<double> in_score(n_nodes, 0), out_score(n_nodes, 0);
  auto add_term = [](int64_t value, int64_t total, double* score) {
    if (total == 0) return;  // pprof: a score of 0
    const double frac = static_cast<double>(SaturatingAbs(value)) / static_cast<double>(total);
    *score += -frac * std::log2(frac);
  };
  for (const WeightedEdge& edge : edges) {
    if (!present(edge.src) || !present(edge.dest)) continue;
    add_term(edge.weight, out_total[edge.src], &out_score[edge.src]);
    add_term(edge.weight, in_total[edge.dest], &in_score[edge.dest]);
  }
  std::vector<int64_t> score(n_nodes, 0);
  for (size_t n = 0; n < n_nodes; ++n) {
    const GraphNode& node = nodes[n];
    if (node.flat > 0) add_term(node.flat, out_total[n], &out_score[n]);
    double s = 0;
    s += in_count[n] == 0 ? 1 : in_score[n];
    s += out_count[n] == 0 ? 1 : out_score[n];
    score[n] = static_cast<int64_t>(s * static_cast<double>(node.cum)) + node.flat;
  }
  return score;
}

}  // namespace

void PprofGraph::SortNodes() {
  std::vector<WeightedEdge> weighted;
  for (const GraphEdge& edge : edges_) {
    if (edge.weight == kErased) continue;
    weighted.push_back(WeightedEdge{static_cast<uint32_t>(edge.src),
                                    static_cast<uint32_t>(edge.dest), edge.weight});
  }
  OrderNodes(EntropyScores(nodes_, weighted));
}

void PprofGraph::Rank(const std::vector<bool>& kept) {
  nodes_.assign(stacks_->infos.size(), GraphNode());
  for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i].info = i;
  edges_.clear();
  has_tags_ = false;
  // The edges' ends and weights only (16 bytes an edge, where a graph's edge with its places
  // in two lists is 56): a large graph has nearly a million.
  std::vector<WeightedEdge> weighted;
  // No more edges than frames: reserved (address space, touched as edges come), not grown by
  // copies.
  weighted.reserve(stacks_->frames.size());
  WalkEdges(kept, [&](const GraphEdge& edge) {
    weighted.push_back(WeightedEdge{static_cast<uint32_t>(edge.src),
                                    static_cast<uint32_t>(edge.dest), edge.weight});
  });
  const std::vector<int64_t> all_scores = EntropyScores(nodes_, weighted);
  weighted = std::vector<WeightedEdge>();
  // The nodes Build would keep: those with a value.
  std::vector<GraphNode> kept_nodes;
  std::vector<int64_t> score;
  for (size_t n = 0; n < nodes_.size(); ++n) {
    if (nodes_[n].flat == 0 && nodes_[n].cum == 0) continue;
    score.push_back(all_scores[n]);
    kept_nodes.push_back(std::move(nodes_[n]));
  }
  nodes_ = std::move(kept_nodes);
  OrderNodes(score);
}

void PprofGraph::OrderNodes(const std::vector<int64_t>& score) {
  // Ties by name, flat value, then the whole NodeInfo.
  std::vector<size_t> order(nodes_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::string> names(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i)
    names[i] = stacks_->infos[nodes_[i].info].PrintableName();
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (SaturatingAbs(score[a]) != SaturatingAbs(score[b]))
      return SaturatingAbs(score[a]) > SaturatingAbs(score[b]);
    if (names[a] != names[b]) return names[a] < names[b];
    if (SaturatingAbs(nodes_[a].flat) != SaturatingAbs(nodes_[b].flat)) {
      return SaturatingAbs(nodes_[a].flat) > SaturatingAbs(nodes_[b].flat);
    }
    return SprintInfo(stacks_->infos[nodes_[a].info]) < SprintInfo(stacks_->infos[nodes_[b].info]);
  });
  std::vector<size_t> position(nodes_.size());
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::vector<GraphNode> sorted;
  sorted.reserve(nodes_.size());
  for (size_t i : order) sorted.push_back(std::move(nodes_[i]));
  for (GraphEdge& edge : edges_) {
    if (edge.src == SIZE_MAX || edge.dest == SIZE_MAX) continue;  // gone with its node
    edge.src = position[edge.src];
    edge.dest = position[edge.dest];
  }
  nodes_ = std::move(sorted);
}

void PprofGraph::TrimTags(int64_t cutoff) {
  auto trim = [&](std::map<std::string, GraphTag>* tags) {
    for (auto it = tags->begin(); it != tags->end();) {
      const bool keep =
          SaturatingAbs(it->second.flat) >= cutoff || SaturatingAbs(it->second.cum) >= cutoff;
      it = keep ? std::next(it) : tags->erase(it);
    }
  };
  for (GraphNode& node : nodes_) {
    trim(&node.label_tags);
    for (auto& [labels, tags] : node.numeric_tags) trim(&tags);
  }
}

size_t PprofGraph::TrimEdges(int64_t cutoff) {
  size_t dropped = 0;
  for (size_t e = 0; e < edges_.size(); ++e) {
    if (!live(e) || SaturatingAbs(edges_[e].weight) >= cutoff) continue;
    edges_[e].weight = kErased;
    ++dropped;
  }
  if (dropped == 0) return 0;
  // Most edges of a large graph go here: the nodes' lists are compacted once.
  auto compact = [&](std::vector<size_t>* list) {
    list->erase(std::remove_if(list->begin(), list->end(), [&](size_t e) { return !live(e); }),
                list->end());
  };
  for (GraphNode& node : nodes_) {
    compact(&node.in);
    compact(&node.out);
  }
  return dropped;
}

std::vector<bool> PprofGraph::TopNodes(size_t count) const {
  // pprof counts a node's tags (those with a flat value, at most four) as nodes of the picture.
  size_t shown = std::min(count, nodes_.size());
  size_t drawn = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    size_t tags = 0;
    for (const auto& [name, tag] : nodes_[i].label_tags) tags += tag.flat != 0;
    for (const auto& [labels, numeric] : nodes_[i].numeric_tags) {
      for (const auto& [name, tag] : numeric) tags += tag.flat != 0;
    }
    drawn += std::min<size_t>(tags, 4) + 1;
    if (drawn >= count) {
      shown = i + 1;
      break;
    }
  }
  std::vector<size_t> top;
  for (size_t i = 0; i < shown; ++i) top.push_back(i);
  return KeptSet(top);
}

std::vector<std::string> PprofGraph::Names() const {
  std::vector<std::string> names(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i)
    names[i] = stacks_->infos[nodes_[i].info].PrintableName();
  return names;
}

namespace {

// pprof's edge order: heaviest first, then by the names of source and target.
void SortEdges(const std::vector<GraphEdge>& all, const std::vector<std::string>& names,
               std::vector<size_t>* edges) {
  std::stable_sort(edges->begin(), edges->end(), [&](size_t a, size_t b) {
    const GraphEdge& x = all[a];
    const GraphEdge& y = all[b];
    if (x.weight != y.weight) return SaturatingAbs(x.weight) > SaturatingAbs(y.weight);
    if (names[x.src] != names[y.src]) return names[x.src] < names[y.src];
    if (names[x.dest] != names[y.dest]) return names[x.dest] < names[y.dest];
    return std::tie(x.src, x.dest) < std::tie(y.src, y.dest);  // only for equal names
  });
}

}  // namespace

std::vector<size_t> PprofGraph::SortedEdges() const {
  std::vector<size_t> edges;
  for (size_t e = 0; e < edges_.size(); ++e) {
    if (live(e)) edges.push_back(e);
  }
  SortEdges(edges_, Names(), &edges);
  return edges;
}

std::vector<size_t> PprofGraph::SortedInEdges(const GraphNode& node,
                                              const std::vector<std::string>& names) const {
  std::vector<size_t> edges = node.in;
  SortEdges(edges_, names, &edges);
  return edges;
}

void PprofGraph::RemoveRedundantEdges() {
  // pprof's rule: residual edges whose target is reached another way go, lightest first, last
  // node first; a node's heavier residual edges stay once a real call edge is met.
  const std::vector<std::string> names = Names();
  for (size_t i = nodes_.size(); i > 0; --i) {
    const std::vector<size_t> in = SortedInEdges(nodes_[i - 1], names);
    for (size_t j = in.size(); j > 0; --j) {
      const size_t e = in[j - 1];
      if (!edges_[e].residual) break;
      if (IsRedundant(e)) EraseEdge(e);
    }
  }
}

bool PprofGraph::IsRedundant(size_t edge) const {
  const size_t src = edges_[edge].src;
  std::vector<bool> seen(nodes_.size(), false);
  std::deque<size_t> queue{edges_[edge].dest};
  seen[edges_[edge].dest] = true;
  while (!queue.empty()) {
    const size_t n = queue.front();
    queue.pop_front();
    for (size_t e : nodes_[n].in) {
      const size_t caller = edges_[e].src;
      if (e == edge || seen[caller]) continue;
      if (caller == src) return true;
      seen[caller] = true;
      queue.push_back(caller);
    }
  }
  return false;
}

}  // namespace proftools
