// prof-merge --aggregate: samples with the same source, stack and labels become one sample
// whose values are the sums, without time or duration (formats/prof-text.md §5.1).
//
// Memory grows with the number of distinct (source, stack, labels) keys, never with samples.
// Output order is the order in which each key first appeared; that order is associative
// (the first appearance of a key in a ++ (b ++ c) is its first appearance in (a ++ b) ++ c),
// which is what makes merging as a tree give the same bytes as merging at once.
#ifndef PROFTOOLS_COMMON_MERGE_AGGREGATE_H_
#define PROFTOOLS_COMMON_MERGE_AGGREGATE_H_

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "common/model.h"
#include "common/sink.h"

namespace proftools {

class SampleAggregator {
 public:
  SampleAggregator();
  SampleAggregator(const SampleAggregator&) = delete;
  SampleAggregator& operator=(const SampleAggregator&) = delete;

  // Adds `sample` (its time and duration are ignored). Its labels are moved from.
  void Add(Sample* sample);
  // Sends one sample per key, in order of first appearance.
  void Emit(ProfileSink* sink) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t source_id = 0;
    uint64_t stack_id = 0;
    std::vector<Label> labels;
    // Sums wrap around on overflow, as pprof's do: modular addition keeps them associative.
    std::vector<uint64_t> sums;
  };
  struct KeyHash {
    const std::vector<Entry>* entries;
    size_t operator()(size_t index) const;
  };
  struct KeyEqual {
    const std::vector<Entry>* entries;
    bool operator()(size_t a, size_t b) const;
  };

  std::vector<Entry> entries_;
  std::unordered_set<size_t, KeyHash, KeyEqual> keys_;  // indices into entries_
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_AGGREGATE_H_
