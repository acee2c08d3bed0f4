// What a call graph profile says once read (callgrind's files, Python's pstats): functions with
// their exact self costs and the calls between them (caller -> callee, call count, inclusive cost
// of the calls), summed over the file's cost lines. Memory grows with distinct functions and
// edges, not with cost lines.
//
// Such profiles keep edges, not stacks: Emit builds stacks the way speedscope's importer does
// (src/import/callgrind.ts): from each function's root weight (its inclusive cost not reached
// through a call), every function's cost is assumed to split among its callees in the average
// ratio of its edges, down the call tree the edges describe. That is an approximation wherever a
// function has several callers (the split of its callees' costs between them is not recorded);
// it is bounded: a callee already on the stack (indirect recursion) is not expanded again, a
// function's calls to itself are folded into it, a node of negligible share (kNegligible) is
// not made, and the tree stops growing at kMaxDepth frames deep, kMaxNodes nodes or kMaxFrames
// frames in all (or after kMaxWork edges looked at). What stays exact: each function's self
// cost per event (each function's cost apportioned among its places in the tree by largest
// remainders, so the flat sums are the file's) and each edge's call count (the value type `calls`,
// on the callee's frames under that caller), so `prof-text --top` gives callgrind_annotate's self
// costs and
// `--top --type calls` the number of times each function was called.
#ifndef PROFTOOLS_COMMON_MODEL_CALL_GRAPH_H_
#define PROFTOOLS_COMMON_MODEL_CALL_GRAPH_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/byte_arena.h"
#include "common/base/flat_index.h"
#include "common/base/view_index.h"
#include "common/model/interner.h"
#include "common/model/model.h"

namespace proftools {

class CallGraph {
 public:
  static constexpr size_t kMaxDepth = 256;
  static constexpr size_t kMaxNodes = 200000;
  static constexpr uint64_t kMaxWork = 50000000;  // edges looked at while building the tree
  // The frames of all the tree's stacks together (each node's depth, summed): what the stacks
  // cost to hold, well inside the interner's default limit.
  static constexpr uint64_t kMaxFrames = uint64_t{1} << 22;
  // A node that would carry less than this share of every event's total (and of its edge's
  // calls) is not made: in a dense graph paths multiply past any bound as their shares vanish.
  static constexpr long double kNegligible = 1e-9L;

  explicit CallGraph(size_t events) : events_(events) {}

  size_t events() const { return events_; }
  // The function (object, name, file) stands for; `name` without a recursion level (`f'2` is
  // f). The file of a function is the first given for it.
  uint32_t Function(const std::string& object, const std::string& name, const std::string& file);
  // A function told apart by its name, file and first line, as Python's profilers key them
  // (two `__init__` of two classes are two functions); no mapping, no recursion levels.
  uint32_t FunctionAt(std::string_view name, std::string_view file, int64_t start_line);
  // Room for `functions` functions and `edges` edges at once (a pstats file says how many).
  void Reserve(size_t functions, size_t edges);
  // `costs` has events() values. A braced list of costs makes no vector (a pstats file has an
  // edge for each of a function's callers: hundreds of thousands).
  void AddSelf(uint32_t function, const std::vector<int64_t>& costs) {
    AddSelf(function, costs.data(), costs.size());
  }
  void AddSelf(uint32_t function, std::initializer_list<int64_t> costs) {
    AddSelf(function, costs.begin(), costs.size());
  }
  void AddCall(uint32_t caller, uint32_t callee, uint64_t count,
               const std::vector<int64_t>& costs) {
    AddCall(caller, callee, count, costs.data(), costs.size());
  }
  void AddCall(uint32_t caller, uint32_t callee, uint64_t count,
               std::initializer_list<int64_t> costs) {
    AddCall(caller, callee, count, costs.begin(), costs.size());
  }
  // AddCall for a caller and callee the graph has no edge between yet, as the caller knows (a
  // pstats file gives each function's callers once): no lookup, where looking each of hundreds
  // of thousands of edges up in an index of them all missed the cache twice. An AddCall after
  // it finds the edge all the same.
  void AddNewCall(uint32_t caller, uint32_t callee, uint64_t count,
                  std::initializer_list<int64_t> costs);
  // Multiplies every cost of `event` by `factor` (saturating): costs written in units of
  // several (Xdebug's Time_(10ns)) become costs in the unit.
  void Scale(size_t event, int64_t factor);
  // Lets go of the lookups that built the graph (the index of the functions' keys, each edge's
  // index), for a caller done adding: their memory is then where Emit builds the stacks
  // instead of fresh pages. Function, FunctionAt and AddCall throw after it.
  void Seal();
  // The sum of every self cost per event (what `totals:` must equal).
  const std::vector<int64_t>& self_totals() const { return self_totals_; }
  size_t function_count() const { return functions_.size(); }
  bool has_calls() const { return has_calls_; }

  // Emits the stacks and samples (definitions through `interner`, samples to `sink`): values
  // are the events, then the call count when `with_calls`. `labels` go on every sample. Returns
  // whether the tree was cut at kMaxDepth, kMaxNodes or kMaxFrames (the caller warns). An
  // interner without stacks yet gets them by NewStack (the tree tells its paths apart), and no
  // stack by content after. Once: the edges and costs go once the tree has them (their memory
  // is where the stacks' definitions go); a second Emit throws std::logic_error, as do the
  // adding calls after it.
  bool Emit(Interner* interner, ProfileSink* sink, uint64_t source_id, bool with_calls,
            const std::vector<Label>& labels);
  // The warning for a tree Emit cut: "the call tree built from the BUILT_FROM was cut at ...:
  // each function's KEPT is kept, ...".
  static std::string CutWarning(const std::string& built_from, const std::string& kept);

 private:
  struct Edge {
    uint32_t caller = 0, callee = 0;
    uint64_t calls = 0;
    size_t costs = 0;  // its inclusive costs: events() values at edge_costs_[costs]
  };
  struct Node {
    std::string_view object, name, file;  // in keys_ (name may be a literal "???")
    int64_t start_line = 0;
    uint64_t self_calls = 0;  // calls of the function to itself (recursion), folded into it
  };
  struct Tree;

  void AddSelf(uint32_t function, const int64_t* costs, size_t count);
  void AddCall(uint32_t caller, uint32_t callee, uint64_t calls, const int64_t* costs,
               size_t count);

  size_t events_;
  std::vector<Node> functions_;
  // Each function's key (object \0 name, or FunctionAt's name \0 file \0 line), kept in keys_:
  // ids 1, 2, ... are the functions in order. The nodes' texts are views of the keys (and a
  // Function's file is stored beside its key): no allocation a function (a pstats file has a
  // hundred thousand), and the keys live as long as the graph.
  ByteArena keys_;
  ViewIndex function_of_;
  std::string key_scratch_;  // the key being looked up
  // The function of key_scratch_, added to the index when new (*added; *stored is then the key
  // as kept).
  uint32_t FunctionOfKey(bool* added, std::string_view* stored);
  // Self costs, events() values a function, and every edge in order of first appearance: one
  // array each, one map, not a vector a function (a Python program's graph has a hundred
  // thousand functions and hundreds of thousands of edges).
  std::vector<int64_t> self_;
  const int64_t* self(uint32_t function) const { return &self_[size_t{function} * events_]; }
  std::vector<Edge> edges_;
  // caller << 32 | callee -> index in edges_, for the edges before indexed_edges_ (AddNewCall's
  // are indexed when an AddCall first needs them).
  FlatIndex edge_of_;
  size_t indexed_edges_ = 0;
  bool sealed_ = false;
  bool emitted_ = false;
  void CheckNotSealed() const;
  // A new edge without calls or costs (not indexed); its index in edges_.
  size_t NewEdge(uint32_t caller, uint32_t callee);
  // AddCall's and AddNewCall's common part: the calls and costs added to edge `index`.
  void AddToEdge(size_t index, uint64_t count, const int64_t* costs, size_t cost_count);
  // Folds a function's calls to itself into it; true when `caller` is `callee`.
  bool AddSelfCalls(uint32_t caller, uint32_t callee, uint64_t count);
  std::vector<int64_t> edge_costs_;
  const int64_t* inclusive(const Edge& edge) const { return &edge_costs_[edge.costs]; }
  std::vector<int64_t> self_totals_;
  bool has_calls_ = false;
  // Whether two functions may stand for one location (and two nodes of the tree for one
  // stack): FunctionAt's "" is "???", and a Function of no object and a FunctionAt of line 0
  // are alike. Otherwise each function's location is its own (Function keys are contents).
  bool made_by_function_ = false, made_by_function_at_ = false, unnamed_or_unknown_ = false;
  bool LocationsMayRepeat() const {
    return unnamed_or_unknown_ || (made_by_function_ && made_by_function_at_);
  }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_CALL_GRAPH_H_
