// Stacks given parent-linked, as .cpuprofile nodes, Firefox stack tables, speedscope's evented
// profiles and callgrind's call edges give them: a node has a parent node (or none: a root) and
// a location (or none: a node with no frame of its own, such as V8's "(root)"). The stack of a
// node is its location, then its parent's, up to the root: leaf first, as the model keeps them.
//
// Nodes may come in any order and parents after their children; a stack is only built when asked
// for, by walking up the parents (no recursion, so 100,000 levels are fine), and remembered per
// node. A parent that is missing or a chain that comes back to itself is a ProfError naming the
// node, not a hang.
#ifndef PROFTOOLS_COMMON_MODEL_PARENT_STACKS_H_
#define PROFTOOLS_COMMON_MODEL_PARENT_STACKS_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/interner.h"

namespace proftools {

class ParentLinkedStacks {
 public:
  // Stacks are interned through `interner`; `name` names the input in messages.
  ParentLinkedStacks(Interner* interner, std::string name);

  static constexpr uint64_t kNoParent = UINT64_MAX;
  static constexpr uint64_t kNoLocation = 0;

  // Declares `node`. Throws ProfError when it was declared already.
  void Add(uint64_t node, uint64_t parent, uint64_t location_id);
  bool Has(uint64_t node) const { return nodes_.count(node) != 0; }

  // The interned stack id of `node`. Throws ProfError for an undeclared node, a missing parent
  // or a cycle.
  uint64_t StackOf(uint64_t node);

 private:
  struct Node {
    uint64_t parent;
    uint64_t location;
    uint64_t stack = 0;  // 0: not built yet
  };

  Interner* interner_;
  std::string name_;
  std::unordered_map<uint64_t, Node> nodes_;
  std::vector<uint64_t> locations_;  // reused by StackOf
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_PARENT_STACKS_H_
