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
  uint64_t index;
  if (!index_.Find(sample.stack_id, &index)) {
    index = entries_.size();
    index_.Insert(sample.stack_id, index, &index);
    entries_.push_back(Entry{sample.stack_id, 0, std::vector<int64_t>(total_values_.size(), 0)});
  }
  Entry& entry = entries_[index];
  ++entry.samples;
  for (size_t i = 0; i < sample.values.size() && i < entry.values.size(); ++i) {
    entry.values[i] += sample.values[i];
  }
}

void StackTotals::SetTotals(uint64_t samples, std::vector<int64_t> values) {
  total_samples_ = samples;
  total_values_ = std::move(values);
}

}  // namespace proftools
