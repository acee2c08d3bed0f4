// Counting subsequences of consecutive frames (background 004: "count occurrences of every
// observed subsequence of frames, at most once per sample"), level by level: a sequence of k
// frames is counted only when both of its sequences of k-1 frames reached the threshold (a
// sample holding `a;b;c` holds `a;b` and `b;c`, so nothing above the threshold is missed). The
// threshold prunes by weight (never negative, at least the magnitude of the value: see
// SequenceStacks), so that it stays sound when values are negative, as in a difference.
// Memory grows with the sequences counted, which the threshold and the length bound.
#ifndef PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_COUNTS_H_
#define PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_COUNTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/report/sequence/sequence_stacks.h"

namespace proftools {

struct SequenceLimits {
  size_t max_length = 4;  // frames in a sequence
  int64_t min_value = 1;  // extend by weight and list by |value| only at least this
  bool by_self = false;   // list by the value of samples whose stack ends with the sequence
};

struct CountedSequence {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t prefix = kNone;  // the sequence without its last frame (kNone for one frame)
  uint32_t suffix = kNone;  // the sequence without its first frame (kNone for one frame)
  uint32_t last = 0;        // its last frame
  uint32_t length = 1;
  int64_t cum = 0;         // samples holding it, each counted once
  int64_t self = 0;        // samples whose (collapsed) stack ends with it
  int64_t cum_weight = 0;  // the weights of the same stacks
  int64_t self_weight = 0;
};

class SequenceCounts {
 public:
  SequenceCounts(const SequenceStacks& stacks, const SequenceLimits& limits);

  // Every sequence counted (those of one frame all; longer ones, up to one frame more than
  // `max_length` by cum, when their parts reached `min_value` of cum).
  const std::vector<CountedSequence>& sequences() const { return sequences_; }
  // Its frames, root first.
  std::vector<uint32_t> Frames(uint32_t sequence) const;
  // The sequences to list, largest first (cum, or self with by_self): those of at most
  // `max_length` frames reaching `min_value`, except
  // - one that a listed sequence one frame longer contains with the same value (every sample
  //   holding it holds the longer one, which shows its value as a prefix or says the same);
  // - by cum, a sequence S of `max_length` frames always preceded by the same frame x, when the
  //   window one frame earlier (x;S less its last frame) has the same value: along a path that
  //   never branches, the windows after the first say nothing more.
  // `hidden` gets how many were left out so.
  std::vector<uint32_t> Listed(const SequenceStacks& stacks, size_t* hidden) const;

 private:
  uint32_t Add(uint32_t prefix, uint32_t suffix, uint32_t last, uint32_t length);

  SequenceLimits limits_;
  std::vector<CountedSequence> sequences_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_COUNTS_H_
