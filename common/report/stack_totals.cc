#include "common/report/stack_totals.h"

#include <utility>

#include "common/base/saturating.h"

namespace proftools {

void StackTotals::OnHeader(const ProfileHeader& header) {
  DefinitionKeepingSink::OnHeader(header);
  total_values_.assign(header.types.size(), 0);
}

void StackTotals::OnSample(const Sample& sample) {
  ++total_samples_;
  for (size_t i = 0; i < sample.values.size() && i < total_values_.size(); ++i) {
    AddMagnitudeSaturating(&total_values_[i], sample.values[i]);
  }
  Entry& entry = EntryOf(sample.stack_id);
  ++entry.samples;
  for (size_t i = 0; i < sample.values.size() && i < entry.values.size(); ++i) {
    entry.values[i] += sample.values[i];
  }
}

StackTotals::Entry& StackTotals::EntryOf(uint64_t stack_id) {
  uint64_t index;
  if (!index_.Find(stack_id, &index)) {
    index = entries_.size();
    index_.Insert(stack_id, index, &index);
    entries_.push_back(Entry{stack_id, 0, std::vector<int64_t>(total_values_.size(), 0), {}});
  }
  return entries_[index];
}

void StackTotals::AddEntry(uint64_t stack_id, uint64_t samples, const std::vector<int64_t>& values,
                           const std::vector<int64_t>& base) {
  Entry& entry = EntryOf(stack_id);
  entry.samples += samples;
  for (size_t i = 0; i < values.size() && i < entry.values.size(); ++i) {
    AddSaturating(&entry.values[i], values[i]);
  }
  if (base.empty()) return;
  is_diff_ = true;
  entry.base_values.resize(entry.values.size(), 0);
  for (size_t i = 0; i < base.size() && i < entry.base_values.size(); ++i) {
    AddSaturating(&entry.base_values[i], base[i]);
  }
}

void StackTotals::SetTotals(uint64_t samples, std::vector<int64_t> values) {
  total_samples_ = samples;
  total_values_ = std::move(values);
}

}  // namespace proftools
