// What leads into a sequence of frames and what it calls (background 004's graph node; pprof
// -peek; speedscope's sandwich view), over the stacks of the sequence views.
//
// In each sample holding the sequence, its caller is the frame before its outermost (first)
// occurrence, or [root] when that starts the stack, and its callee the frame after its
// innermost (last) occurrence, or [self] when that ends the stack. So callers and callees each
// add up to the sequence's cumulative value, recursion or not; for a frame that no sample holds
// twice they are pprof -peek's callers and callees.
#ifndef PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_PEEK_H_
#define PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_PEEK_H_

#include <cstdint>
#include <vector>

#include "common/report/sequence/sequence_stacks.h"

namespace proftools {

struct PeekEdge {
  static constexpr uint32_t kEnd = UINT32_MAX;  // [root] among callers, [self] among callees
  uint32_t frame = kEnd;
  int64_t value = 0;
};

struct Peek {
  std::vector<uint32_t> frames;   // the sequence, root first
  int64_t cum = 0;                // samples holding it
  int64_t self = 0;               // samples whose stack ends with it
  bool recursive = false;         // some sample holds it twice
  std::vector<PeekEdge> callers;  // largest first, then by name; [root] among them
  std::vector<PeekEdge> callees;  // largest first, then by name; [self] among them
};

// The peek of one sequence.
Peek PeekSequence(const SequenceStacks& stacks, const std::vector<uint32_t>& frames);

// The peeks of every frame `matches` accepts (one pass over the stacks), in pprof's order:
// self value (pprof's flat) first, then name, then cum.
std::vector<Peek> PeekFrames(const SequenceStacks& stacks, const std::vector<bool>& matches);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_PEEK_H_
