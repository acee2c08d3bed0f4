// perf's ordered events: records that carry a time are queued and delivered in time order (ties
// in the order they came), as `perf script` and `perf report` do. perf writes a FINISHED_ROUND
// record after each pass over the per-CPU buffers; every record older than the round before
// it has been written by then, so at each FINISHED_ROUND the queue delivers what is not newer
// than the newest time seen when the previous round ended. Finish() delivers the rest. The
// queue holds record headers (offsets into the mapped input), so memory grows with one round.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_ORDER_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_ORDER_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/perf/data/perf_data_records.h"

namespace proftools {

class PerfEventOrder {
 public:
  void Queue(const PerfRecordHeader& record, uint64_t time) {
    queue_.push_back({time, record});
    max_time_ = std::max(max_time_, time);
  }
  template <typename Deliver>
  void FinishRound(Deliver deliver) {
    Flush(next_flush_, deliver);
    next_flush_ = max_time_;
    oldest_at_ = ~uint64_t{0};
    for (const Queued& queued : queue_) oldest_at_ = std::min(oldest_at_, queued.record.at);
  }
  // The lowest offset of a record still queued, as of the last round (records queued since lie
  // above it): the input below it is not read again.
  uint64_t oldest_at() const { return oldest_at_; }
  template <typename Deliver>
  void Finish(Deliver deliver) {
    Flush(~uint64_t{0}, deliver);
  }

 private:
  struct Queued {
    uint64_t time;
    PerfRecordHeader record;
  };
  template <typename Deliver>
  void Flush(uint64_t up_to, Deliver deliver) {
    if (queue_.empty()) return;
    std::stable_sort(queue_.begin(), queue_.end(),
                     [](const Queued& a, const Queued& b) { return a.time < b.time; });
    size_t delivered = 0;
    while (delivered < queue_.size() && queue_[delivered].time <= up_to) {
      deliver(queue_[delivered].record);
      ++delivered;
    }
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(delivered));
  }
  std::vector<Queued> queue_;
  uint64_t max_time_ = 0;
  uint64_t next_flush_ = 0;
  uint64_t oldest_at_ = ~uint64_t{0};
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_ORDER_H_
