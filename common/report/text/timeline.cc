#include "common/report/text/timeline.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// Buckets needed to cover `span` (at least one).
int64_t BucketCount(const SourceSpan& span, int64_t bucket) {
  const __int128 length = static_cast<__int128>(span.end) - span.first;
  const __int128 count = (length + bucket - 1) / bucket;
  return count < 1 ? 1 : count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count);
}

std::string Csv(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

int64_t AutomaticBucket(const std::map<uint64_t, SourceSpan>& spans) {
  __int128 longest = 1;
  for (const auto& [source, span] : spans) {
    if (!span.empty())
      longest = std::max<__int128>(longest, static_cast<__int128>(span.end) - span.first);
  }
  constexpr int kTarget = 40;
  for (__int128 power = 1;; power *= 10) {
    for (int step : {1, 2, 5}) {
      const __int128 bucket = power * step;
      if (bucket * kTarget >= longest || bucket > INT64_MAX / 10) {
        return static_cast<int64_t>(bucket);
      }
    }
  }
}

Timeline::Timeline(TimelineOptions options, std::map<uint64_t, SourceSpan> spans)
    : options_(std::move(options)) {
  bucket_ = options_.bucket_nanos > 0 ? options_.bucket_nanos : AutomaticBucket(spans);
  for (const auto& [source, span] : spans) {
    if (span.empty()) continue;
    const int64_t count = BucketCount(span, bucket_);
    if (count > kMaxTimelineBuckets) {
      throw UsageError("--timeline " + FormatValue(bucket_, "nanoseconds", true) +
                       "ns would cut source " + std::to_string(source) + " into " +
                       std::to_string(count) + " buckets; at most " +
                       std::to_string(kMaxTimelineBuckets) + ": give a larger bucket");
    }
    series_[source] = Series{span, std::vector<int64_t>(static_cast<size_t>(count), 0)};
  }
}

void Timeline::OnHeader(const ProfileHeader& header) {
  header_ = header;
  value_index_ = ResolveValueIndex(header, options_.value);
}

void Timeline::OnSample(const Sample& sample) {
  const int64_t value = sample.values[static_cast<size_t>(value_index_)];
  auto it = sample.time_nanos ? series_.find(sample.source_id) : series_.end();
  if (it == series_.end()) {
    ++untimed_samples_;
    AddSaturating(&untimed_value_, value);
    return;
  }
  Series& series = it->second;
  const int64_t time = *sample.time_nanos;
  const int64_t duration = sample.duration_nanos.value_or(0);
  const __int128 offset = static_cast<__int128>(time) - series.span.first;
  const int64_t last = static_cast<int64_t>(series.sums.size()) - 1;
  const int64_t first_bucket =
      static_cast<int64_t>(std::clamp<__int128>(offset / bucket_, 0, last));
  if (duration <= 0) {
    AddSaturating(&series.sums[static_cast<size_t>(first_bucket)], value);
    return;
  }
  // Each bucket the sample overlaps gets its share; the shares add up to the value.
  const __int128 end_offset = offset + duration - 1;
  const int64_t last_bucket =
      static_cast<int64_t>(std::clamp<__int128>(end_offset / bucket_, 0, last));
  for (int64_t k = first_bucket; k <= last_bucket; ++k) {
    const __int128 from = series.span.first + static_cast<__int128>(k) * bucket_;
    const int64_t from64 = k == 0 ? INT64_MIN : static_cast<int64_t>(from);
    const int64_t to64 = k == last ? INT64_MAX : static_cast<int64_t>(from + bucket_);
    AddSaturating(&series.sums[static_cast<size_t>(k)],
                  ShareInWindow(value, time, duration, from64, to64));
  }
}

void Timeline::WriteTable(std::string* text) const {
  const ValueType& type = header_.types[static_cast<size_t>(value_index_)];
  auto fmt = [&](int64_t v) { return FormatValue(v, type.unit, options_.raw_values); };
  *text += TypeLine(type);
  if (!options_.filter_description.empty()) {
    *text += "Active filters:\n   " + options_.filter_description + "\n";
  }
  *text += "Timeline: " + DisplayFrameName(type.type) + " per " +
           FormatValue(bucket_, "nanoseconds", false) +
           " from each source's first sample; a sample with a duration is spread over the "
           "buckets it spans\n";
  for (const auto& [id, series] : series_) {
    const Source* source = header_.FindSource(id);
    int64_t total = 0;
    for (int64_t v : series.sums) AddSaturating(&total, v);
    *text += "source " + std::to_string(id) + ": " +
             (source != nullptr ? DisplayFrameName(source->type + " " + source->uri) : "?") + ", " +
             FormatValue(series.span.end - series.span.first, "nanoseconds", false) + ", total " +
             fmt(total) + "\n";
  }
  if (untimed_samples_ > 0) {
    *text += std::to_string(untimed_samples_) +
             (untimed_samples_ == 1 ? " sample has" : " samples have") +
             " no time and no bucket: " + fmt(untimed_value_) + "\n";
  }
  size_t rows = 0;
  for (const auto& [id, series] : series_) rows = std::max(rows, series.sums.size());
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head{"start"};
  for (const auto& [id, series] : series_) head.push_back("source " + std::to_string(id));
  cells.push_back(head);
  for (size_t r = 0; r < rows; ++r) {
    std::vector<std::string> row{
        FormatValue(static_cast<int64_t>(r) * bucket_, "nanoseconds", options_.raw_values)};
    for (const auto& [id, series] : series_)
      row.push_back(r < series.sums.size() ? fmt(series.sums[r]) : "");
    cells.push_back(row);
  }
  std::vector<size_t> widths(head.size(), 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) {
      *text += std::string(widths[c] - row[c].size() + (c == 0 ? 0 : 3), ' ') + row[c];
    }
    // A source shorter than the longest has blank cells at the end of its column.
    while (!text->empty() && text->back() == ' ') text->pop_back();
    *text += "\n";
  }
}

void Timeline::WriteCsv(std::string* text) const {
  *text += "source,uri,offset_ns,time_ns,bucket_ns,value\n";
  for (const auto& [id, series] : series_) {
    const Source* source = header_.FindSource(id);
    const std::string uri = Csv(source != nullptr ? source->uri : "");
    for (size_t k = 0; k < series.sums.size(); ++k) {
      const int64_t offset = static_cast<int64_t>(k) * bucket_;
      const int64_t time = static_cast<int64_t>(
          std::min<__int128>(static_cast<__int128>(series.span.first) + offset, INT64_MAX));
      *text += std::to_string(id) + "," + uri + "," + std::to_string(offset) + "," +
               std::to_string(time) + "," + std::to_string(bucket_) + "," +
               std::to_string(series.sums[k]) + "\n";
    }
  }
}

void Timeline::Write(ByteSink* out) const {
  std::string text;
  if (options_.csv) {
    WriteCsv(&text);
  } else {
    WriteTable(&text);
  }
  out->Write(text);
}

}  // namespace proftools
