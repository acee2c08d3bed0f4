#include "common/report/stack_totals.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// pprof's -traces lines for a sample's labels: one per key, `%10s:  V1 V2...`, the string
// labels' lines sorted, then the numeric labels' lines sorted (internal/report printTraces).
std::string TraceLabels(const std::vector<Label>& labels) {
  if (labels.empty()) return "";
  std::map<std::pair<bool, std::string>, std::string> values;  // (numeric, key) -> values
  for (const Label& label : labels) {
    std::string& joined = values[{label.is_num, label.key}];
    if (!joined.empty()) joined += ' ';
    joined +=
        label.is_num ? FormatValue(label.num, label.unit, false) : DisplayFrameName(label.str);
  }
  std::vector<std::string> lines[2];
  char key[64];
  for (const auto& [kind, joined] : values) {
    const std::string name = DisplayFrameName(kind.second);
    std::snprintf(key, sizeof key, "%10s", name.size() < 40 ? name.c_str() : "");
    lines[kind.first].push_back((name.size() < 40 ? std::string(key) : name) + ":  " + joined +
                                "\n");
  }
  std::string text;
  for (auto& group : lines) {
    std::sort(group.begin(), group.end());
    for (const std::string& line : group) text += line;
  }
  return text;
}

// The labels as one string that tells every two label sets apart.
std::string ExactLabelKey(const std::vector<Label>& labels) {
  std::string key;
  for (const Label& label : labels) {
    key += label.key;
    key += '\0';
    key += label.is_num ? std::to_string(label.num) + '\0' + label.unit : label.str;
    key += label.is_num ? "\1" : "\2";
  }
  return key;
}

}  // namespace

void StackTotals::OnHeader(const ProfileHeader& header) {
  DefinitionKeepingSink::OnHeader(header);
  total_values_.assign(header.types.size(), 0);
  samples_with_value_.assign(header.types.size(), 0);
  samples_type_ = header.TypeIndex("samples");
}

void StackTotals::OnSample(const Sample& sample) {
  ++total_records_;
  for (size_t i = 0; i < sample.values.size() && i < total_values_.size(); ++i) {
    AddMagnitudeSaturating(&total_values_[i], sample.values[i]);
    samples_with_value_[i] += sample.values[i] != 0;
  }
  Entry& entry = EntryOf(sample.stack_id, keying_ == LabelKeying::kNone ? 0 : LabelsOf(sample).id);
  const size_t index = static_cast<size_t>(&entry - entries_.data());
  const size_t types = total_values_.size();
  if (pending_samples_.size() < entries_.size()) {  // a new entry (or one AddEntry made)
    pending_samples_.resize(entries_.size(), 0);
    pending_values_.resize(entries_.size() * types, 0);
  }
  ++pending_samples_[index];
  int64_t* sums = pending_values_.data() + index * types;
  for (size_t i = 0; i < sample.values.size() && i < types; ++i) sums[i] += sample.values[i];
}

void StackTotals::OnExpect(const ExpectedDefinitions& expected) {
  DefinitionKeepingSink::OnExpect(expected);
  // An entry a stack, as a profile whose samples have no labels has.
  const uint64_t stacks = ExpectedDefinitions::Room(expected.stacks);
  if (entries_.empty() && stacks != 0) {
    entries_.reserve(stacks);
    index_.Reserve(stacks);
  }
}

void StackTotals::OnEnd() {
  AddPending();
}

void StackTotals::PendingError() {
  throw ProfError("", "internal error: stack totals read before the end of the profile");
}

void StackTotals::AddPending() {
  const size_t types = total_values_.size();
  for (size_t e = 0; e < pending_samples_.size(); ++e) {
    Entry& entry = entries_[e];
    entry.samples += pending_samples_[e];
    for (size_t i = 0; i < types && i < entry.values.size(); ++i) {
      entry.values[i] += pending_values_[e * types + i];
    }
  }
  pending_samples_.clear();
  pending_values_.clear();
}

const StackTotals::RecentLabels& StackTotals::LabelsOf(const Sample& sample) {
  // By the labels' number first: comparing the labels of the slots before the sample's was
  // most of a look.
  if (const RecentLabels* recent = recent_.Find([&](const RecentLabels& slot) {
        return sample.labels_id != 0 && slot.labels_id == sample.labels_id;
      })) {
    return *recent;
  }
  if (const RecentLabels* recent = recent_.Find([&](const RecentLabels& slot) {
        return HasLabels(sample, slot.labels_id, slot.labels);
      })) {
    return *recent;
  }
  RecentLabels& slot = recent_.Replace();
  slot.labels = sample.labels;
  slot.labels_id = sample.labels_id;
  slot.rendered =
      keying_ == LabelKeying::kTraces ? TraceLabels(sample.labels) : ExactLabelKey(sample.labels);
  bool added = false;
  slot.id = LabelNumber(slot.rendered, &added);
  if (keying_ == LabelKeying::kExact) {
    if (label_sets_.size() <= slot.id) label_sets_.resize(slot.id + 1);
    if (added) label_sets_[slot.id] = sample.labels;
    slot.rendered.clear();  // entries keep the number, not the key (label_set(entry))
  }
  return slot;
}

uint64_t StackTotals::LabelNumber(const std::string& rendered, bool* added) {
  const auto [it, is_new] = label_ids_.try_emplace(rendered, label_ids_.size());
  if (is_new && keying_ == LabelKeying::kTraces) label_texts_.push_back(rendered);
  if (added != nullptr) *added = is_new;
  return it->second;
}

StackTotals::Entry& StackTotals::EntryWithLabels(uint64_t stack_id, const std::string& labels) {
  return EntryOf(stack_id, keying_ == LabelKeying::kNone ? 0 : LabelNumber(labels));
}

size_t StackTotals::IndexOf(const Entry& entry) const {
  const size_t index = static_cast<size_t>(&entry - entries_.data());
  if (index >= entries_.size()) {
    throw std::logic_error("StackTotals: an entry not of entries()");
  }
  return index;
}

const std::string& StackTotals::labels(const Entry& entry) const {
  static const std::string kNone;
  if (keying_ != LabelKeying::kTraces || entry.label_id >= label_texts_.size()) return kNone;
  return label_texts_[entry.label_id];
}

const int64_t* StackTotals::base_values(const Entry& entry) const {
  if (!is_diff_) return nullptr;
  return base_values_.data() + IndexOf(entry) * entry.values.size();
}

StackTotals::Entry& StackTotals::EntryOf(uint64_t stack_id, uint64_t label_id) {
  uint64_t index;
  if (keying_ != LabelKeying::kNone) {
    if (entries_.size() >= UINT32_MAX - 1) throw ProfError("", "more than 4 billion stacks");
    index = entries_.size();
    uint64_t first;
    if (!index_.Find(stack_id, &first)) {
      index_.Insert(stack_id, index, &first);
      entry_next_.push_back(UINT32_MAX);
    } else {
      size_t chained = 0;
      uint32_t last = UINT32_MAX;
      for (uint32_t e = static_cast<uint32_t>(first); e != UINT32_MAX; e = entry_next_[e]) {
        if (entry_label_[e] == label_id) return entries_[e];
        last = e;
        ++chained;
      }
      if (chained < kChainedLabelSets) {
        entry_next_[last] = static_cast<uint32_t>(index);
      } else {
        bool added = false;
        index = labeled_index_.FindOrAdd(std::make_pair(stack_id, label_id),
                                         static_cast<uint32_t>(index), &added);
        if (!added) return entries_[index];
      }
      entry_next_.push_back(UINT32_MAX);
    }
    entry_label_.push_back(static_cast<uint32_t>(label_id));
  } else if (index_.Find(stack_id, &index)) {
    return entries_[index];
  } else {
    index = entries_.size();
    index_.Insert(stack_id, index, &index);
  }
  // Made in place: a temporary Entry moved in cost a call graph's 231,000 new stacks a tenth
  // of their totalling. Its labels are label_texts_[label_id] (kTraces), from LabelNumber.
  Entry& entry = entries_.emplace_back();
  entry.stack_id = stack_id;
  entry.values.assign(total_values_.size(), 0);
  entry.label_id = label_id;
  return entry;
}

const std::vector<Label>& StackTotals::label_set(const Entry& entry) const {
  static const std::vector<Label> kNone;
  return entry.label_id < label_sets_.size() ? label_sets_[entry.label_id] : kNone;
}

void StackTotals::AddEntry(uint64_t stack_id, uint64_t samples, const std::vector<int64_t>& values,
                           const std::vector<int64_t>& base, const std::string& labels) {
  Entry& entry = EntryWithLabels(stack_id, labels);
  entry.samples += samples;
  for (size_t i = 0; i < values.size() && i < entry.values.size(); ++i) {
    AddSaturating(&entry.values[i], values[i]);
  }
  if (base.empty()) return;
  is_diff_ = true;
  const size_t types = entry.values.size();  // every entry's: the header's types
  base_values_.resize(entries_.size() * types, 0);
  int64_t* sums = base_values_.data() + IndexOf(entry) * types;
  for (size_t i = 0; i < base.size() && i < types; ++i) AddSaturating(&sums[i], base[i]);
}

uint64_t StackTotals::total_samples() const {
  if (samples_type_ >= 0 && static_cast<size_t>(samples_type_) < total_values_.size()) {
    return static_cast<uint64_t>(total_values_[samples_type_]);  // a sum of magnitudes: >= 0
  }
  return total_records_;
}

uint64_t StackTotals::SamplesIn(const Sample& sample) const {
  if (samples_type_ < 0) return 1;
  if (static_cast<size_t>(samples_type_) >= sample.values.size()) return 0;
  return Magnitude(sample.values[samples_type_]);
}

void StackTotals::SetTotals(uint64_t records, std::vector<int64_t> values,
                            std::vector<uint64_t> with_value) {
  total_records_ = records;
  total_values_ = std::move(values);
  samples_with_value_ = std::move(with_value);
}

}  // namespace proftools
