// prof-merge --aggregate: samples with the same source, stack and labels become one sample
// whose values are the sums, without time or duration (formats/prof-text.md §5.1).
//
// Memory grows with the number of distinct (source, stack, labels) keys, never with samples.
// Output order is the order in which each key first appeared; that order is associative
// (the first appearance of a key in a ++ (b ++ c) is its first appearance in (a ++ b) ++ c),
// which is what makes merging as a tree give the same bytes as merging at once.
//
// The table is built for a lookup per sample of millions: open addressing over slots that hold
// the key's hash (most probes end there), keys of three integers (a sample's labels as the id of
// their set in the merge's spool, which interns sets by content), and the sums of all keys in
// one array.
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
  void Add(const Sample& sample, uint64_t label_set);
  // Sends, in order of first appearance, one sample for each key not sent yet whose first sample
  // was number `sample_number` or earlier, with the labels `spool` has for its set. Called as
  // the samples are replayed with their definitions, this sends each key just where its first
  // sample was, so that the writer never waits with all definitions for samples that come at
  // the end.
  void EmitThrough(uint64_t sample_number, const MergeSpool& spool, ProfileSink* sink);
  size_t size() const { return keys_.size(); }

 private:
  struct Key {
    uint64_t source_id = 0;
    uint64_t stack_id = 0;
    uint64_t label_set = 0;
    uint64_t first_sample = 0;  // the number of the sample that brought the key
  };
  struct Slot {
    uint64_t hash = 0;
    uint64_t index = 0;  // 1 + index into keys_; 0: empty
  };

  void Grow();

  size_t width_;
  std::vector<Key> keys_;
  // Sums wrap around on overflow, as pprof's do: modular addition keeps them associative.
  std::vector<uint64_t> sums_;  // width_ per key
  std::vector<Slot> slots_;     // a power of two, at most half full
  uint64_t samples_ = 0;        // added so far
  size_t emitted_ = 0;          // keys sent so far
  Sample out_;
  uint64_t out_label_set_ = 0;  // the set out_.labels holds
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGE_AGGREGATE_H_
