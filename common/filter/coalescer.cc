#include "common/filter/coalescer.h"

#include <algorithm>
#include <utility>

#include "common/base/saturating.h"

namespace proftools {
namespace {

int64_t EndOf(const Sample& sample) {
  const int64_t time = *sample.time_nanos;
  const int64_t duration = sample.duration_nanos.value_or(0);
  return duration > INT64_MAX - time ? INT64_MAX : time + duration;
}

void AppendNumber(uint64_t value, std::string* out) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

void AppendBytes(const std::string& bytes, std::string* out) {
  AppendNumber(bytes.size(), out);
  out->append(bytes);
}

}  // namespace

void AppendThreadKey(const Sample& sample, std::string* key) {
  AppendNumber(sample.source_id, key);
  for (const Label& label : sample.labels) {
    AppendBytes(label.key, key);
    key->push_back(label.is_num ? 'n' : 's');
    if (label.is_num) {
      AppendNumber(static_cast<uint64_t>(label.num), key);
      AppendBytes(label.unit, key);
    } else {
      AppendBytes(label.str, key);
    }
  }
}

Coalescer::Coalescer(int64_t gap_nanos, std::vector<int> split_types,
                     std::function<void(const Sample&)> emit)
    : gap_(gap_nanos), split_types_(std::move(split_types)), emit_(std::move(emit)) {}

bool Coalescer::Splits(const Sample& sample) const {
  for (int index : split_types_) {
    if (sample.values[static_cast<size_t>(index)] != 0) return true;
  }
  return false;
}

void Coalescer::Close(Run* run) {
  if (run->joined) {
    run->sample.duration_nanos = run->end - *run->sample.time_nanos;
  }
  emit_(run->sample);
}

void Coalescer::Add(const Sample& sample) {
  if (!sample.time_nanos) {
    emit_(sample);
    return;
  }
  key_.clear();
  AppendThreadKey(sample, &key_);
  auto [it, inserted] = open_.try_emplace(key_);
  Run& run = it->second;
  if (!inserted) {
    const int64_t time = *sample.time_nanos;
    const bool joins = run.sample.stack_id == sample.stack_id && !Splits(sample) &&
                       time >= *run.sample.time_nanos && time - run.end <= gap_;
    if (joins) {
      for (size_t i = 0; i < sample.values.size(); ++i) {
        AddSaturating(&run.sample.values[i], sample.values[i]);
      }
      run.end = std::max(run.end, EndOf(sample));
      run.joined = true;
      return;
    }
    Close(&run);
  }
  run.sample = sample;
  run.end = EndOf(sample);
  run.start = count_++;
  run.joined = false;
}

void Coalescer::Finish() {
  std::vector<Run*> runs;
  runs.reserve(open_.size());
  for (auto& [key, run] : open_) runs.push_back(&run);
  std::sort(runs.begin(), runs.end(),
            [](const Run* a, const Run* b) { return a->start < b->start; });
  for (Run* run : runs) Close(run);
  open_.clear();
}

void GapStatistics::Add(const Sample& sample) {
  if (!sample.time_nanos) return;
  key_.clear();
  AppendThreadKey(sample, &key_);
  auto [it, inserted] = last_end_.try_emplace(key_, EndOf(sample));
  if (inserted) return;
  const int64_t gap = *sample.time_nanos - it->second;
  it->second = EndOf(sample);
  if (gap < 0) return;
  size_t bucket = 0;
  if (gap > 0) {
    const int octave = 63 - __builtin_clzll(static_cast<uint64_t>(gap));
    // The 5 bits below the leading one pick the sub-bucket.
    const uint64_t fraction =
        octave >= 5 ? (static_cast<uint64_t>(gap) >> (octave - 5)) & (kSubBuckets - 1)
                    : (static_cast<uint64_t>(gap) << (5 - octave)) & (kSubBuckets - 1);
    bucket = 1 + static_cast<size_t>(octave) * kSubBuckets + fraction;
  }
  ++buckets_[bucket];
  ++gaps_;
}

int64_t GapStatistics::Median() const {
  if (gaps_ == 0) return 0;
  uint64_t seen = 0;
  for (size_t bucket = 0; bucket < buckets_.size(); ++bucket) {
    seen += buckets_[bucket];
    if (seen * 2 < gaps_) continue;
    if (bucket == 0) return 0;
    const int octave = static_cast<int>((bucket - 1) / kSubBuckets);
    const uint64_t fraction = (bucket - 1) % kSubBuckets;
    // The bucket holds [2^octave × (1 + fraction/32), 2^octave × (1 + (fraction+1)/32)).
    const __int128 upper =
        (static_cast<__int128>(kSubBuckets + fraction + 1) << octave) / kSubBuckets;
    return upper > INT64_MAX ? INT64_MAX : static_cast<int64_t>(upper);
  }
  return 0;
}

}  // namespace proftools
