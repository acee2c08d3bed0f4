// pprof's call graph (its internal/graph package, as internal/report trims it for -dot): one
// node per frame at the chosen granularity with flat and cumulative values, edges caller ->
// callee weighted by the value that flows through them (residual where dropped nodes lie
// between, inline where the callee was inlined), tags from the samples' labels, and the
// trimming pprof applies before drawing (nodefraction, edgefraction, nodecount, redundant
// residual edges). Built from StackTotals, whose entries already sum equal stacks and labels.
#ifndef PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_GRAPH_H_
#define PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/flat_index.h"
#include "common/report/frames.h"
#include "common/report/stack_totals.h"

namespace proftools {

// What identifies a node (pprof's graph.NodeInfo): the fields a granularity keeps.
struct GraphNodeInfo {
  std::string name;
  uint64_t address = 0;
  std::string file;
  int64_t start_line = 0;
  int64_t line = 0;
  std::string objfile;
  bool operator<(const GraphNodeInfo& o) const;
  bool operator==(const GraphNodeInfo& o) const;
  // pprof's NameComponents: address, name, FILE:LINE or FILE, else [binary] or <unknown>.
  std::vector<std::string> NameComponents() const;
  // The components joined by spaces: how pprof names a node in tooltips and sorts ties.
  std::string PrintableName() const;
};

struct GraphTag {
  std::string name;
  std::string unit;   // numeric tags: the label's unit
  int64_t value = 0;  // numeric tags: the label's value
  int64_t flat = 0;
  int64_t cum = 0;
};

struct GraphEdge {
  size_t src = 0;  // node indices
  size_t dest = 0;
  int64_t weight = 0;
  bool residual = false;  // goes over nodes left out of the graph
  bool inlined = false;   // the callee was inlined into the caller
};

struct GraphNode {
  size_t info = 0;  // index into PprofGraph::infos()
  int64_t flat = 0;
  int64_t cum = 0;
  std::vector<size_t> in;   // edges from callers (indices into PprofGraph::edges())
  std::vector<size_t> out;  // edges to callees
  // String labels of the samples, joined as pprof joins them ("k1:v1\nk2:v2", sorted).
  std::map<std::string, GraphTag> label_tags;
  // Numeric tags (the `bytes` label), per joined string labels ("" for none).
  std::map<std::string, std::map<std::string, GraphTag>> numeric_tags;
};

struct PprofGraphOptions {
  Granularity granularity = Granularity::kFunctions;
  int value_index = 0;
  double node_fraction = 0.005;  // pprof's defaults for -dot
  double edge_fraction = 0.001;
  size_t node_count = 80;  // 0: no limit
};

// A graph's stacks (the entries of StackTotals with a value of the type, at the granularity),
// as frames of node infos: what a graph is built from, the same for every type whose values are
// in the same entries (a CPU profile's samples and cpu), so that a graph of another type of the
// same totals takes them and sums only its own values (PprofGraph's `share`).
struct PprofGraphStacks {
  Granularity granularity = Granularity::kFunctions;
  int value_index = 0;  // the type they were collected for
  std::vector<GraphNodeInfo> infos;
  // One entry per stack: its frames and its values by label set, ranges of `frames` and
  // `value_sets` (one array each, not two vectors an entry: 50,000 stacks were 200,000
  // allocations).
  struct Entry {
    size_t first_frame = 0, end_frame = 0;
    size_t first_set = 0, end_set = 0;
  };
  std::vector<Entry> entries;
  // An entry's frames: info << 1 | inlined, root first (four bytes a frame, for the passes over
  // every frame).
  std::vector<uint32_t> frames;
  struct LabelSet {
    std::string joined;                                  // joined string labels
    std::vector<std::pair<int64_t, std::string>> bytes;  // numeric `bytes` labels, with units
  };
  std::vector<LabelSet> label_sets;  // 0: no labels
  std::vector<uint32_t> value_sets;  // the label set (other than 0) of each value by label set
  // Per entry of the totals: the entry it went to and the place of its value by label set
  // (UINT32_MAX: none: no value of the type, no stack, no labels).
  std::vector<uint32_t> entry_of_totals, set_value_of_totals;
  // The steps of the stacks' walks (a kept node to the next kept one) placed by caller, for a
  // set of kept nodes (PprofGraph::PlaceSteps): the graphs sharing the stacks add theirs.
  struct Step {
    uint32_t callee_flags;  // callee << 2 | residual << 1 | inlined
    uint32_t entry;
  };
  struct PlacedSteps {
    std::vector<bool> kept;     // empty: every node
    std::vector<size_t> start;  // per caller, its first step; one more at the end
    std::vector<Step> steps;
  };
  mutable std::mutex placed_mutex;
  mutable std::vector<std::shared_ptr<const PlacedSteps>> placed;
};

// Hands a graph's stacks to the graphs of the other types (prof-html draws one graph a type,
// perhaps on several threads).
class PprofGraphStacksShare {
 public:
  std::shared_ptr<const PprofGraphStacks> Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stacks_;
  }
  void Put(std::shared_ptr<const PprofGraphStacks> stacks) {
    std::lock_guard<std::mutex> lock(mutex_);
    stacks_ = std::move(stacks);
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const PprofGraphStacks> stacks_;
};

// The graph as pprof draws it: nodes in pprof's visual order (entropy), trimmed.
class PprofGraph {
 public:
  // With `share`: the stacks of a graph of another type of the same totals, taken when they
  // fit (the same granularity, values in the same entries), else collected and put there.
  PprofGraph(const StackTotals& totals, const PprofGraphOptions& options,
             PprofGraphStacksShare* share = nullptr);

  const std::vector<GraphNode>& nodes() const { return nodes_; }
  const std::vector<GraphEdge>& edges() const { return edges_; }  // some erased: see live
  bool live(size_t edge) const { return edges_[edge].weight != kErased; }
  const GraphNodeInfo& info(const GraphNode& node) const { return stacks_->infos[node.info]; }
  // The live edges, in pprof's order: heaviest first, then by the names of source and target.
  std::vector<size_t> SortedEdges() const;
  // The nodes' printable names, by node index.
  std::vector<std::string> Names() const;

  size_t dropped_nodes() const { return dropped_nodes_; }  // below the node fraction
  size_t dropped_edges() const { return dropped_edges_; }  // below the edge fraction, at the end
  size_t nodes_before_count() const { return nodes_before_count_; }  // before --nodecount

  static constexpr int64_t kErased = INT64_MIN;

 private:
  using Entry = PprofGraphStacks::Entry;
  using LabelSet = PprofGraphStacks::LabelSet;
  struct Frames {
    const uint32_t* first;
    const uint32_t* last;
    const uint32_t* begin() const { return first; }
    const uint32_t* end() const { return last; }
    bool empty() const { return first == last; }
    uint32_t back() const { return last[-1]; }
  };
  Frames FramesOf(const Entry& entry) const {
    const uint32_t* frames = stacks_->frames.data();
    return Frames{frames + entry.first_frame, frames + entry.end_frame};
  }
  struct TagSums {
    int64_t flat = 0;
    int64_t cum = 0;
  };
  // The stacks with a value of the type: `stacks_`, made here.
  void Collect(const StackTotals& totals, const PprofGraphOptions& options);
  // Takes `shared` as `stacks_` when its entries are those with a value of this type.
  bool Reuse(const StackTotals& totals, const PprofGraphOptions& options,
             std::shared_ptr<const PprofGraphStacks> shared);
  // This type's sums, `entry_values_` and `set_values_`, through where `stacks_` says each
  // entry of the totals went (the same sums in the same order whoever made the stacks).
  void SumValues(const StackTotals& totals, int value_index);
  // Builds nodes_ and edges_ from the entries, keeping only infos marked in `kept` (all when
  // empty), as pprof's newGraph.
  void Build(const std::vector<bool>& kept);
  // Build's edges and the nodes' values.
  void BuildEdges(const std::vector<bool>& kept);
  // The edges among the kept infos (all when empty), each once, in (caller, callee) order:
  // on_edge(edge) for each; the kept nodes_ (indexed by info) get their flat and cumulative
  // values (NodeValues').
  template <typename OnEdge>
  void WalkEdges(const std::vector<bool>& kept, OnEdge on_edge);
  // The steps of the walks among the kept infos, placed by caller (or a sharing graph's).
  std::shared_ptr<const PprofGraphStacks::PlacedSteps> PlaceSteps(
      const std::vector<bool>& kept) const;
  // nodes_ as Build(kept) then SortNodes() would leave them, without edges (their weights give
  // the order, the edges are not kept): for choosing the top nodes of a graph not drawn whole.
  void Rank(const std::vector<bool>& kept);
  // The flat and cumulative value of every node, by info (what Build gives them, without edges).
  void NodeValues(std::vector<int64_t>* flat, std::vector<int64_t>* cum) const;
  // The tags of the first `limit` nodes, from the samples again (only the graphs whose tags are
  // looked at need them). Once per Build.
  void AddTags(const std::vector<bool>& kept, size_t limit);
  // A node's tags from its sums per label set.
  void MakeTags(GraphNode* node, const std::vector<std::pair<uint32_t, TagSums>>& sums) const;
  void EraseEdge(size_t edge);
  void SortNodes();  // pprof's EntropyOrder
  // Sorts nodes_ by |score| (by node index), then as pprof breaks ties; edges renumbered.
  void OrderNodes(const std::vector<int64_t>& score);
  void TrimTags(int64_t cutoff);
  size_t TrimEdges(int64_t cutoff);
  std::vector<bool> TopNodes(size_t count) const;
  void RemoveRedundantEdges();
  // The edges into `node`, in SortedEdges' order; `names` from Names().
  std::vector<size_t> SortedInEdges(const GraphNode& node,
                                    const std::vector<std::string>& names) const;
  bool IsRedundant(size_t edge) const;
  std::vector<bool> KeptSet(const std::vector<size_t>& node_indices) const;

  std::shared_ptr<const PprofGraphStacks> stacks_;
  PprofGraphStacksShare* share_ = nullptr;  // where the placed steps are kept for the others
  // Every node's values, by info (NodeValues).
  std::vector<int64_t> node_flat_, node_cum_;
  // This type's sums: per entry of stacks_, and per value by label set.
  std::vector<int64_t> entry_values_;
  std::vector<int64_t> set_values_;
  bool has_tags_ = false;
  std::vector<GraphNode> nodes_;
  std::vector<GraphEdge> edges_;
  size_t dropped_nodes_ = 0;
  size_t dropped_edges_ = 0;
  size_t nodes_before_count_ = 0;
};

// Graphviz's escString: `\` and `"` escaped, a line break a left-justified one (`\l`).
std::string EscapeForDot(const std::string& text);

// pprof's SortTags: by |cum| (unless `flat`), then |flat|, then name.
void SortGraphTags(std::vector<GraphTag>* tags, bool flat);

// pprof's ShortenFunctionName: a Go, Java or C++ name without its package or namespace path.
std::string ShortenFunctionName(const std::string& name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_GRAPH_H_
