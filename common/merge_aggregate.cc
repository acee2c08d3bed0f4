#include "common/merge_aggregate.h"

#include <functional>
#include <string>
#include <utility>

namespace proftools {
namespace {

inline void Mix(size_t* seed, size_t value) {
  *seed ^= value + 0x9e3779b97f4a7c15ull + (*seed << 6) + (*seed >> 2);
}

}  // namespace

size_t SampleAggregator::KeyHash::operator()(size_t index) const {
  const Entry& e = (*entries)[index];
  size_t seed = e.source_id;
  Mix(&seed, e.stack_id);
  for (const Label& label : e.labels) {
    Mix(&seed, std::hash<std::string>()(label.key));
    Mix(&seed, label.is_num ? std::hash<int64_t>()(label.num) ^ std::hash<std::string>()(label.unit)
                            : std::hash<std::string>()(label.str));
  }
  return seed;
}

bool SampleAggregator::KeyEqual::operator()(size_t a, size_t b) const {
  const Entry& x = (*entries)[a];
  const Entry& y = (*entries)[b];
  return x.source_id == y.source_id && x.stack_id == y.stack_id && x.labels == y.labels;
}

SampleAggregator::SampleAggregator() : keys_(16, KeyHash{&entries_}, KeyEqual{&entries_}) {}

void SampleAggregator::Add(Sample* sample) {
  // The candidate goes at the end of entries_ so that the set can compare it by index; it stays
  // there only when its key is new.
  Entry& candidate = entries_.emplace_back();
  candidate.source_id = sample->source_id;
  candidate.stack_id = sample->stack_id;
  candidate.labels = std::move(sample->labels);
  auto [it, inserted] = keys_.insert(entries_.size() - 1);
  Entry& target = entries_[*it];
  if (inserted) target.sums.assign(sample->values.size(), 0);
  for (size_t i = 0; i < sample->values.size(); ++i) {
    target.sums[i] += static_cast<uint64_t>(sample->values[i]);
  }
  if (!inserted) {
    sample->labels = std::move(entries_.back().labels);  // give the buffers back for reuse
    entries_.pop_back();
  }
}

void SampleAggregator::Emit(ProfileSink* sink) const {
  Sample out;
  for (const Entry& e : entries_) {
    out.source_id = e.source_id;
    out.stack_id = e.stack_id;
    out.labels = e.labels;
    out.values.assign(e.sums.begin(), e.sums.end());
    sink->OnSample(out);
  }
}

}  // namespace proftools
