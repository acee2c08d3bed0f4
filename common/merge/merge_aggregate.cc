#include "common/merge/merge_aggregate.h"

#include <algorithm>
#include <cstdint>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

uint64_t KeyHash(uint64_t source, uint64_t stack, uint64_t label_set) {
  uint64_t h = label_set * 0xff51afd7ed558ccdull;
  h ^= (source * 0x9e3779b97f4a7c15ull) + (h << 6) + (h >> 2);
  h ^= (stack * 0xc2b2ae3d27d4eb4full) + (h << 6) + (h >> 2);
  return h ^ (h >> 29);
}

}  // namespace

void SampleAggregator::Grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.index == 0) continue;
    const Key& key = keys_[slot.index - 1];
    size_t i = KeyHash(key.source_id, key.stack_id, key.label_set) & mask;
    while (slots_[i].index != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

void SampleAggregator::Add(uint64_t source_id, uint64_t stack_id, uint64_t label_set,
                           const int64_t* values) {
  if (pending_count_ == kAhead) SumOldest();
  const size_t at = (first_pending_ + pending_count_) % kAhead;
  const uint64_t hash = KeyHash(source_id, stack_id, label_set);
  pending_[at] = Pending{source_id, stack_id, label_set, hash};
  std::copy(values, values + width_, &pending_values_[at * width_]);
  ++pending_count_;
  // Where the slot is now (a table that grows before the sum has it elsewhere: no matter).
  if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
}

void SampleAggregator::Flush() {
  while (pending_count_ > 0) SumOldest();
}

void SampleAggregator::SumOldest() {
  Sum(pending_[first_pending_], &pending_values_[first_pending_ * width_]);
  first_pending_ = (first_pending_ + 1) % kAhead;
  --pending_count_;
}

void SampleAggregator::Sum(const Pending& pending, const int64_t* values) {
  if ((keys_.size() + 1) * 2 > slots_.size()) Grow();
  const uint64_t hash = pending.hash;
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.index == 0) break;
    if (slot.tag != tag) continue;
    const Key& key = keys_[slot.index - 1];
    if (key.source_id == pending.source_id && key.stack_id == pending.stack_id &&
        key.label_set == pending.label_set) {
      uint64_t* sums = &sums_[(slot.index - 1) * width_];
      for (size_t v = 0; v < width_; ++v) sums[v] += static_cast<uint64_t>(values[v]);
      ++samples_;
      return;
    }
  }
  if (keys_.size() >= UINT32_MAX - 1 || pending.source_id > UINT32_MAX ||
      pending.label_set > UINT32_MAX) {
    throw ProfError("(merged profile)",
                    "more than 4 billion distinct samples, sources or label sets to sum");
  }
  keys_.push_back(Key{static_cast<uint32_t>(pending.source_id),
                      static_cast<uint32_t>(pending.label_set), pending.stack_id, samples_++});
  slots_[i] = Slot{tag, static_cast<uint32_t>(keys_.size())};
  for (size_t v = 0; v < width_; ++v) sums_.push_back(static_cast<uint64_t>(values[v]));
}

void SampleAggregator::EmitThrough(uint64_t sample_number, const MergeSpool& spool,
                                   ProfileSink* sink) {
  Flush();
  out_.values.resize(width_);
  for (; emitted_ < keys_.size() && keys_[emitted_].first_sample <= sample_number; ++emitted_) {
    const Key& key = keys_[emitted_];
    out_.source_id = key.source_id;
    out_.stack_id = key.stack_id;
    if (key.label_set != out_label_set_) {
      spool.LabelsOf(key.label_set, &out_.labels);
      out_label_set_ = key.label_set;
    }
    out_.labels_id = key.label_set + 1;  // one number a set: the sinks need not compare them
    for (size_t v = 0; v < width_; ++v) {
      out_.values[v] = static_cast<int64_t>(sums_[emitted_ * width_ + v]);
    }
    sink->OnSample(out_);
  }
}

}  // namespace proftools
