// prof-merge --aggregate: samples with the same source, stack and labels become one sample
// whose values are the sums, without time or duration (formats/prof-text.md §5.1).
//
// Memory grows with the number of distinct (source, stack, labels) keys, never with samples.
// Output order is the order in which each key first appeared; that order is associative
// (the first appearance of a key in a ++ (b ++ c) is its first appearance in (a ++ b) ++ c),
// which is what makes merging as a tree give the same bytes as merging at once.
//
// The table is built for a lookup per sample of millions: open addressing over slots that hold
// half the key's hash (most probes end there), keys of three integers (a sample's labels as the id
// of their set in the merge's spool, which interns sets by content), and the sums of all keys in
// one array. A lookup in a table of millions of keys is a cache miss: each sample is hashed and
// its slot fetched kAhead samples before it is summed, so that the misses overlap.
#ifndef PROFTOOLS_COMMON_MERGE_MERGE_AGGREGATE_H_
#define PROFTOOLS_COMMON_MERGE_MERGE_AGGREGATE_H_

#include <cstdint>
#include <vector>

#include "common/merge/merge_spool.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

class SampleAggregator {
 public:
  // Samples have `width` values each.
  explicit SampleAggregator(size_t width) : width_(width) {}
  SampleAggregator(const SampleAggregator&) = delete;
  SampleAggregator& operator=(const SampleAggregator&) = delete;

  // Adds `sample` (its time, duration and labels are ignored) with the labels of set
  // `label_set` (0: none; equal sets have equal ids): the Nth call adds sample number N - 1.
  // The last few are summed by the next calls, or by Flush.
  void Add(const Sample& sample, uint64_t label_set) {
    Add(sample.source_id, sample.stack_id, label_set, sample.values.data());
  }
  // The same, for a sample of this source and stack with these `width` values.
  void Add(uint64_t source_id, uint64_t stack_id, uint64_t label_set, const int64_t* values);
  // Sums the samples Add has not summed yet: call it after the last Add.
  void Flush();
  // Sends, in order of first appearance, one sample for each key not sent yet whose first sample
  // was number `sample_number` or earlier, with the labels `spool` has for its set. Called as
  // the samples are replayed with their definitions, this sends each key just where its first
  // sample was, so that the writer never waits with all definitions for samples that come at
  // the end.
  void EmitThrough(uint64_t sample_number, const MergeSpool& spool, ProfileSink* sink);
  size_t size() const { return keys_.size(); }  // keys, after Flush
  // Calls on_key(source_id, stack_id, label_set, sums) for each key, in order of first
  // appearance, with its `width` sums (modulo 2^64). Call it after Flush.
  template <typename OnKey>
  void ForEachKey(OnKey on_key) const {
    for (size_t k = 0; k < keys_.size(); ++k) {
      on_key(keys_[k].source_id, keys_[k].stack_id, keys_[k].label_set, &sums_[k * width_]);
    }
  }

 private:
  // 24 bytes: sources and label sets are numbered from 1 by the merge, far below 2^32.
  struct Key {
    uint32_t source_id = 0;
    uint32_t label_set = 0;
    uint64_t stack_id = 0;
    uint64_t first_sample = 0;  // the number of the sample that brought the key
  };
  // 8 bytes, so that the table of a merge of millions of keys stays small beside the interner
  // it lives with while samples are summed as they arrive.
  struct Slot {
    uint32_t tag = 0;    // the upper half of the key's hash (the lower half chose the slot)
    uint32_t index = 0;  // 1 + index into keys_; 0: empty
  };

  // A sample added but not summed yet: its key, hash and values (width_ of them, in
  // pending_values_).
  struct Pending {
    uint64_t source_id, stack_id, label_set, hash;
  };
  static constexpr size_t kAhead = 8;

  void Grow();
  void Sum(const Pending& pending, const int64_t* values);
  void SumOldest();  // of the pending samples

  size_t width_;
  std::vector<Key> keys_;
  // Sums wrap around on overflow, as pprof's do: modular addition keeps them associative.
  std::vector<uint64_t> sums_;  // width_ per key
  std::vector<Slot> slots_;     // a power of two, at most half full
  uint64_t samples_ = 0;        // added so far
  size_t emitted_ = 0;          // keys sent so far
  Pending pending_[kAhead];     // a ring: the oldest at first_pending_
  std::vector<int64_t> pending_values_ = std::vector<int64_t>(kAhead * width_);
  size_t first_pending_ = 0, pending_count_ = 0;
  Sample out_;
  uint64_t out_label_set_ = 0;  // the set out_.labels holds
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGE_AGGREGATE_H_
