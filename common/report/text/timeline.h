// --timeline: the value per time bucket of each source, background 002's time-series query
// (§7.5.3) over a whole profile. A sample with a DURATION is spread over the buckets it
// overlaps by the rule of prof-filter's time windows (background 003: the cumulative share is
// rounded), so that a source's buckets add up to its total exactly.
#ifndef PROFTOOLS_COMMON_REPORT_TEXT_TIMELINE_H_
#define PROFTOOLS_COMMON_REPORT_TEXT_TIMELINE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/filter/time_window.h"
#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

struct TimelineOptions {
  int64_t bucket_nanos = 0;  // 0: AutomaticBucket
  bool csv = false;          // comma-separated, one row per source and bucket, exact integers
  bool raw_values = false;
  std::string value;               // --value: the type (empty: the default type)
  std::string filter_description;  // prof-filter's options applied
};

// At most this many buckets per source: a bucket so small that a source needs more is refused.
inline constexpr int64_t kMaxTimelineBuckets = 100000;

// At most this many (sample, bucket) shares in all: a long sample is cut into one share per
// bucket it spans, so tiny buckets under many long samples would take hours. (The automatic
// bucket keeps every sample within 41 buckets.)
inline constexpr uint64_t kMaxTimelineShares = 200000000;

// An upper bound of the shares a sample of `duration` makes with buckets of `bucket` ns.
inline uint64_t TimelineShares(int64_t duration, int64_t bucket) {
  return duration <= 0 ? 1 : static_cast<uint64_t>(duration / bucket) + 2;
}

// A bucket of 1, 2 or 5 × 10^k ns that cuts the longest span into at most 40 buckets.
int64_t AutomaticBucket(const std::map<uint64_t, SourceSpan>& spans);

class Timeline : public DiscardingSink {
 public:
  // `spans`: each source's first TIME and latest end, from a first pass (ScanSampleTimes): a
  // source's buckets start at its first sample. Throws UsageError when a source would need
  // more than kMaxTimelineBuckets buckets.
  Timeline(TimelineOptions options, std::map<uint64_t, SourceSpan> spans);

  void OnHeader(const ProfileHeader& header) override;
  void OnSample(const Sample& sample) override;

  void Write(ByteSink* out) const;

 private:
  struct Series {
    SourceSpan span;
    std::vector<int64_t> sums;  // one per bucket
  };
  void WriteTable(std::string* text) const;
  void WriteCsv(std::string* text) const;

  TimelineOptions options_;
  int64_t bucket_;
  std::map<uint64_t, Series> series_;  // by source id
  ProfileHeader header_;
  int value_index_ = 0;
  uint64_t untimed_samples_ = 0;  // samples without a TIME: in no bucket
  int64_t untimed_value_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_TEXT_TIMELINE_H_
