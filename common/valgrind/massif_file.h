// valgrind massif's output (massif.out.PID), parsed: the header (desc, cmd, time_unit), then
// snapshots, each with its time and heap sizes and, when detailed, its heap tree: nodes in
// depth-first order, each with its depth, its bytes and its frame text
// ("0x109183: make_table (heap_workload.c:14)"). Views point into the file's bytes.
#ifndef PROFTOOLS_COMMON_VALGRIND_MASSIF_FILE_H_
#define PROFTOOLS_COMMON_VALGRIND_MASSIF_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

struct MassifNode {
  uint32_t depth = 0;  // 0: the tree's root (the allocation functions)
  int64_t bytes = 0;   // in the node's subtree
  std::string_view frame;
  uint64_t line = 0;  // in the file, for messages
};

struct MassifSnapshot {
  int64_t number = 0;
  int64_t time = 0;  // in the file's time_unit
  int64_t heap_bytes = 0, heap_extra_bytes = 0, stacks_bytes = 0;
  enum class Tree { kEmpty, kDetailed, kPeak } tree = Tree::kEmpty;
  std::vector<MassifNode> nodes;  // detailed and peak only
};

struct MassifFile {
  std::string desc, cmd, time_unit;
  std::vector<MassifSnapshot> snapshots;
};

// Parses `text` (named `name` in messages). Throws ProfError ("NAME:LINE: what is wrong") for
// what is not massif's output: a tree whose children counts or depths do not add up, a child
// bigger than its parent, numbers that are not numbers.
MassifFile ParseMassif(std::string_view text, const std::string& name);

// Whether `head` starts as massif's output: a desc: line, then cmd: and time_unit:.
bool LooksLikeMassif(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_VALGRIND_MASSIF_FILE_H_
