#include "common/filter/coalescer.h"

#include <algorithm>
#include <iterator>
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

template <typename Done>
void Coalescer::CloseRuns(Done done) {
  std::vector<std::pair<uint64_t, std::string>> closing;
  for (auto& [key, run] : open_) {
    if (done(run)) closing.emplace_back(run.start, key);
  }
  std::sort(closing.begin(), closing.end());
  for (const auto& [start, key] : closing) {
    auto it = open_.find(key);
    Close(&it->second);
    open_.erase(it);
  }
}

void Coalescer::Add(const Sample& sample) {
  if (!sample.time_nanos) {
    emit_(sample);
    return;
  }
  int64_t& latest = latest_.try_emplace(sample.source_id, INT64_MIN).first->second;
  latest = std::max(latest, *sample.time_nanos);
  if (++added_ % kSweepEvery == 0) {
    CloseRuns([this](const Run& run) {
      const int64_t source_latest = latest_[run.sample.source_id];
      return run.end < source_latest && source_latest - run.end > gap_;
    });
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
  CloseRuns([](const Run&) { return true; });
}

void GapStatistics::Add(const Sample& sample) {
  if (!sample.time_nanos) return;
  const uint64_t generation = added_++ / kForgetAfter;
  if (added_ % kForgetAfter == 0) {
    for (auto it = last_.begin(); it != last_.end();) {
      it = it->second.generation + 1 < generation ? last_.erase(it) : std::next(it);
    }
  }
  key_.clear();
  AppendThreadKey(sample, &key_);
  auto [it, inserted] = last_.try_emplace(key_, Seen{EndOf(sample), generation});
  if (inserted) return;
  const int64_t gap = *sample.time_nanos - it->second.end;
  it->second = Seen{EndOf(sample), generation};
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
