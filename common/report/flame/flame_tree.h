// The tree a flame graph draws: stacks merged frame by frame from the root (or from the leaf,
// reversed), children ordered by name as flamegraph.pl orders them (it sorts its folded input),
// each node with the summed value of one value type. Built from StackTotals, so its size grows
// with distinct stacks, not with samples.
#ifndef PROFTOOLS_COMMON_REPORT_FLAME_FLAME_TREE_H_
#define PROFTOOLS_COMMON_REPORT_FLAME_FLAME_TREE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/base/index_span.h"
#include "common/report/frames.h"
#include "common/report/stack_totals.h"

namespace proftools {

struct FlameTreeOptions {
  int value_index = 0;
  Granularity granularity = Granularity::kFunctions;
  bool reverse = false;   // the leaf is the root and callers grow from it (flamegraph.pl --reverse)
  double base_scale = 1;  // base values are multiplied by this (difffolded.pl -n normalizes)
};

class FlameTree {
 public:
  struct Node {           // 32 bytes: a stack a million frames deep has a million
    int64_t value = 0;    // this node and everything above it
    uint32_t name = 0;    // index in names()
    uint32_t source = 0;  // index in names(): "FILE:LINE" of the first frame merged here, or ""
    uint32_t depth = 0;   // the root ("all") is 0
    uint32_t parent = 0;  // the root's is itself
    FrameKind kind = FrameKind::kUser;
  };
  // A node's children, sorted by name, bytewise.
  using Children = IndexSpan;

  // Stacks with a value ≤ 0 for the chosen type are not drawn (a width cannot be negative);
  // nor are empty stacks. `base` (may be null) gives each node's value in a base profile, for a
  // differential graph: nodes only the base has are not added (as FlameGraph's difffolded.pl
  // draws the second profile).
  FlameTree(const StackTotals& totals, const FlameTreeOptions& options,
            const StackTotals* base = nullptr, int base_value_index = 0);

  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& root() const { return nodes_[0]; }
  Children children(const Node& node) const {
    return children(static_cast<uint32_t>(&node - nodes_.data()));
  }
  Children children(uint32_t node) const {
    return {child_list_.data() + child_start_[node], child_list_.data() + child_start_[node + 1]};
  }
  const std::string& name(uint32_t index) const { return names_[index]; }
  // The node's value summed in the base profile (differential graphs; 0 without a base).
  int64_t base(const Node& node) const {
    return base_.empty() ? 0 : base_[static_cast<size_t>(&node - nodes_.data())];
  }
  uint32_t max_depth() const { return max_depth_; }

 private:
  void AddBase(const StackTotals& base, int value_index, const FlameTreeOptions& options);
  uint32_t Intern(const std::string& text);

  std::vector<Node> nodes_;
  // Each node's children, node by node: child_list_[child_start_[n] .. child_start_[n + 1]) (one
  // array for the tree, not a vector a node: a stack a million frames deep has a million nodes).
  std::vector<uint32_t> child_start_, child_list_;
  std::vector<std::string> names_;
  std::vector<int64_t> base_;  // by node, when built with a base
  uint32_t max_depth_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_FLAME_FLAME_TREE_H_
