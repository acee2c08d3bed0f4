// valgrind massif's output (massif.out.PID), parsed: the header (desc, cmd, time_unit), then
// snapshots, each with its time and heap sizes and, when detailed, its heap tree: nodes in
// depth-first order, each with its depth, its bytes and its frame text
// ("0x109183: make_table (heap_workload.c:14)"). Views point into the file's bytes.
// ParseMassif reads the snapshots and checks every tree; ParseMassifTree then gives one tree's
// nodes at a time.
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
  // Detailed and peak only: the tree's lines (checked already), and the first one's number.
  // ParseMassifTree reads them, one tree at a time, so that memory holds one tree's nodes.
  std::string_view tree_text;
  uint64_t tree_line = 0;
};

struct MassifFile {
  std::string desc, cmd, time_unit;
  std::vector<MassifSnapshot> snapshots;
};

// Parses `text` (named `name` in messages). Throws ProfError ("NAME:LINE: what is wrong") for
// what is not massif's output: a tree whose children counts or depths do not add up, a child
// bigger than its parent, numbers that are not numbers.
MassifFile ParseMassif(std::string_view text, const std::string& name);

// The nodes of `snapshot`'s tree, into `nodes` (cleared first).
void ParseMassifTree(const MassifSnapshot& snapshot, const std::string& name,
                     std::vector<MassifNode>* nodes);

// Whether `head` starts as massif's output: a desc: line, then cmd: and time_unit:.
bool LooksLikeMassif(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_VALGRIND_MASSIF_FILE_H_
