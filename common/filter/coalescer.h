// --coalesce: consecutive samples of one thread with the same stack become one "long sample"
// with a weight and a duration (background 003): values summed, TIME of the first, DURATION up
// to the end of the last. The reverse of --time's proportional cut.
#ifndef PROFTOOLS_COMMON_FILTER_COALESCER_H_
#define PROFTOOLS_COMMON_FILTER_COALESCER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// The key of a thread: a sample's source and labels, as bytes.
void AppendThreadKey(const Sample& sample, std::string* key);

class Coalescer {
 public:
  // Samples whose key (AppendThreadKey) is equal, whose stacks are equal and whose TIME is at
  // most `gap_nanos` after the end (TIME + DURATION) of the previous one join a run. A sample
  // with a non-zero value at any of `split_types` (value indexes) starts a new run: the CPU
  // delta rule of background 003 (CPU time belongs before a long sample, never inside it).
  // Finished runs go to `emit`.
  Coalescer(int64_t gap_nanos, std::vector<int> split_types,
            std::function<void(const Sample&)> emit);

  // A sample without TIME cannot join a run: it goes straight to `emit`. Every kSweepEvery
  // samples, runs that can no longer grow (their end is more than GAP before the latest TIME
  // seen in their source) are emitted, so that memory stays bounded by the threads active
  // within GAP even when labels tell every sample apart (a request id, say).
  void Add(const Sample& sample);
  static constexpr uint64_t kSweepEvery = 4096;
  // Emits the runs still open, in the order they started.
  void Finish();

 private:
  struct Run {
    Sample sample;
    int64_t end = 0;     // the latest TIME + DURATION in the run
    uint64_t start = 0;  // order of the run's first sample, for Finish
    bool joined = false;
  };
  void Close(Run* run);
  bool Splits(const Sample& sample) const;
  // Emits, in the order they started, the open runs `done` accepts, and forgets them.
  template <typename Done>
  void CloseRuns(Done done);

  int64_t gap_;
  std::vector<int> split_types_;
  std::function<void(const Sample&)> emit_;
  std::unordered_map<std::string, Run> open_;
  std::unordered_map<uint64_t, int64_t> latest_;  // source id -> latest TIME seen
  std::string key_;
  uint64_t count_ = 0;  // runs started
  uint64_t added_ = 0;  // samples added
};

// The median gap between consecutive samples of a thread, for --coalesce's default GAP, without
// keeping every gap: gaps are counted in buckets 1/32 of an octave wide, and the median bucket's
// upper end is the answer (at most 2.2% above the true median). Memory grows with threads: a
// thread not seen in the last kForgetAfter samples is forgotten (labels that tell every sample
// apart must not make it grow with samples).
class GapStatistics {
 public:
  void Add(const Sample& sample);
  // 0 when no thread had two timed samples.
  int64_t Median() const;
  static constexpr uint64_t kForgetAfter = 65536;

 private:
  static constexpr int kSubBuckets = 32;
  struct Seen {
    int64_t end = 0;          // of the thread's last sample
    uint64_t generation = 0;  // added_ / kForgetAfter when it was seen
  };
  std::unordered_map<std::string, Seen> last_;
  uint64_t added_ = 0;
  std::vector<uint64_t> buckets_ = std::vector<uint64_t>(64 * kSubBuckets + 1);
  uint64_t gaps_ = 0;
  std::string key_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_COALESCER_H_
