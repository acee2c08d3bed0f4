#include "common/model/parent_stacks.h"

#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {

ParentLinkedStacks::ParentLinkedStacks(Interner* interner, std::string name)
    : interner_(interner), name_(std::move(name)) {}

void ParentLinkedStacks::Add(uint64_t node, uint64_t parent, uint64_t location_id) {
  if (!nodes_.emplace(node, Node{parent, location_id}).second) {
    throw ProfError(name_, "node " + std::to_string(node) + " is defined twice");
  }
}

uint64_t ParentLinkedStacks::StackOf(uint64_t node) {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) {
    throw ProfError(name_, "node " + std::to_string(node) + " is not defined");
  }
  if (it->second.stack != 0) return it->second.stack;
  // Walk up to the root: more steps than there are nodes can only be a cycle.
  locations_.clear();
  size_t steps = 0;
  for (uint64_t at = node; at != kNoParent;) {
    const auto up = nodes_.find(at);
    if (up == nodes_.end()) {
      throw ProfError(name_, "node " + std::to_string(node) + " has an ancestor " +
                                 std::to_string(at) + " that is not defined");
    }
    if (++steps > nodes_.size()) {
      throw ProfError(name_, "the parents of node " + std::to_string(node) +
                                 " form a cycle (a node is its own ancestor)");
    }
    if (up->second.location != kNoLocation) locations_.push_back(up->second.location);
    at = up->second.parent;
  }
  it->second.stack = interner_->Stack(locations_);
  return it->second.stack;
}

}  // namespace proftools
