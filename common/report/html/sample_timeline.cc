#include "common/report/html/sample_timeline.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/filter/time_window.h"

namespace proftools {
namespace {

// The thread a sample ran on, from the labels perf2prof and pprof profiles carry.
std::string ThreadOf(const Sample& sample) {
  std::string thread, comm;
  for (const Label& label : sample.labels) {
    const std::string value = label.is_num ? std::to_string(label.num) : label.str;
    if (label.key == "comm") comm = value;
    if (label.key == "tid" || label.key == "thread" || label.key == "thread_id") {
      if (thread.empty()) thread = value;
    }
  }
  if (!comm.empty()) return thread.empty() ? comm : comm + " " + thread;
  return thread;
}

}  // namespace

uint32_t SampleTimeline::Row(const Sample& sample) {
  // By the labels' number first, as StackTotals::LabelsOf.
  if (const RecentRow* recent = recent_rows_.Find([&](const RecentRow& slot) {
        return slot.source_id == sample.source_id && sample.labels_id != 0 &&
               slot.labels_id == sample.labels_id;
      })) {
    return recent->row;
  }
  if (const RecentRow* recent = recent_rows_.Find([&](const RecentRow& slot) {
        return slot.source_id == sample.source_id && HasLabels(sample, slot.labels_id, slot.labels);
      })) {
    return recent->row;
  }
  RecentRow& slot = recent_rows_.Replace();
  slot.source_id = sample.source_id;
  slot.labels = sample.labels;
  slot.labels_id = sample.labels_id;
  slot.row = NewRow(sample);
  return slot.row;
}

uint32_t SampleTimeline::NewRow(const Sample& sample) {
  const std::string thread = ThreadOf(sample);
  const std::string key = std::to_string(sample.source_id) + '\0' + thread;
  auto [it, added] = row_ids_.try_emplace(key, static_cast<uint32_t>(row_names_.size()));
  if (added) {
    const Source* source = header().FindSource(sample.source_id);
    const std::string source_name =
        source != nullptr ? (source->uri.empty() ? source->type : source->uri) : "";
    std::string name = source_name;
    if (!thread.empty()) name += (name.empty() ? "" : " ") + thread;
    row_names_.push_back(name.empty() ? "samples" : name);
    // The file name of the source: a recording's rows must not all read as its directory.
    const size_t slash = source_name.find_last_of('/');
    const std::string file = slash == std::string::npos || slash + 1 == source_name.size()
                                 ? source_name
                                 : source_name.substr(slash + 1);
    std::string label = thread.empty() ? file : thread;
    if (!thread.empty() && header().sources.size() > 1 && !file.empty()) label += " (" + file + ")";
    row_labels_.push_back(label.empty() ? row_names_.back() : label);
    // Beside rows of threads, a source's samples without a thread (a JFR event whose thread the
    // recording lacks) are "(no thread)", not a row named as the whole file.
    const uint32_t row = it->second;
    if (thread.empty()) {
      threadless_row_[sample.source_id] = row;
    } else {
      sources_with_threads_.insert(sample.source_id);
    }
    const auto threadless = threadless_row_.find(sample.source_id);
    if (threadless != threadless_row_.end() && sources_with_threads_.count(sample.source_id)) {
      row_labels_[threadless->second] = header().sources.size() > 1 && !file.empty()
                                            ? "(no thread) (" + file + ")"
                                            : "(no thread)";
    }
  }
  return it->second;
}

void SampleTimeline::Add(uint32_t row, uint32_t bin, const Sample& sample) {
  const size_t types = header().types.size();
  if (keys_.size() >= UINT32_MAX - 1) throw ProfError("", "more than 4 billion timeline entries");
  if (row >= row_states_.size()) row_states_.resize(row + 1);
  RowState& state = row_states_[row];
  if (state.bin != bin) {
    // A bin this row had before: its stacks may be there already, as entries of their own.
    if (state.bin != UINT32_MAX && bin <= state.last_bin) repeats_ = true;
    state.bin = bin;
    state.last_bin = std::max(state.last_bin, bin);
    state.stacks.Reset();
  }
  bool added = false;
  const uint32_t entry =
      state.stacks.FindOrAdd(sample.stack_id, static_cast<uint32_t>(keys_.size()), &added);
  if (added) {
    keys_.push_back(std::make_tuple(row, bin, sample.stack_id));
    values_.resize(values_.size() + types, 0);
  }
  int64_t* values = values_.data() + size_t{entry} * types;
  for (size_t i = 0; i < sample.values.size() && i < types; ++i) {
    AddSaturating(&values[i], sample.values[i]);
  }
  if (keys_.size() < compact_at_) return;
  if (!repeats_) {
    // Samples in time order on each row: no key twice, nothing to merge yet.
    compact_at_ = keys_.size() * 2;
    return;
  }
  Compact();
}

template <typename T, typename Make, typename Less>
std::vector<T> SampleTimeline::InKeyOrder(Make make, Less less) const {
  // Ordered by (row, bin) with a counting sort, then within each (row, bin) by `less`: a few
  // hundred stacks each, sorted where they lie (one sort of every entry through an index was
  // twice the time).
  std::vector<T> out(keys_.size());
  const uint64_t buckets = uint64_t{row_states_.size()} * bins_;
  if (buckets <= 4 * uint64_t{keys_.size()} + (1u << 20)) {
    std::vector<uint32_t> start(buckets + 1, 0);
    for (const auto& [row, bin, stack] : keys_) ++start[uint64_t{row} * bins_ + bin + 1];
    for (uint64_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (uint32_t i = 0; i < keys_.size(); ++i) {
      const auto& [row, bin, stack] = keys_[i];
      out[next[uint64_t{row} * bins_ + bin]++] = make(i);
    }
    for (uint64_t b = 0; b < buckets; ++b) {
      std::sort(out.begin() + start[b], out.begin() + start[b + 1], less);
    }
  } else {
    std::vector<uint32_t> order(keys_.size());
    for (uint32_t i = 0; i < keys_.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    for (size_t i = 0; i < order.size(); ++i) out[i] = make(order[i]);
  }
  return out;
}

void SampleTimeline::Compact() const {
  const size_t types = header().types.size();
  // (stack, entry): entries of one key next to one another, in the order they were added.
  const std::vector<std::pair<uint64_t, uint32_t>> order =
      InKeyOrder<std::pair<uint64_t, uint32_t>>(
          [&](uint32_t i) { return std::make_pair(std::get<2>(keys_[i]), i); },
          std::less<std::pair<uint64_t, uint32_t>>());
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> keys;
  std::vector<int64_t> values;
  keys.reserve(order.size());
  values.reserve(order.size() * types);
  for (const auto& [stack, i] : order) {
    const int64_t* from = values_.data() + size_t{i} * types;
    if (!keys.empty() && keys.back() == keys_[i]) {
      int64_t* into = values.data() + values.size() - types;
      for (size_t t = 0; t < types; ++t) AddSaturating(&into[t], from[t]);
      continue;
    }
    keys.push_back(keys_[i]);
    values.insert(values.end(), from, from + types);
  }
  keys_ = std::move(keys);
  values_ = std::move(values);
  repeats_ = false;
  // The entries moved: each row's current bin is indexed again (samples may follow).
  for (RowState& state : row_states_) state.stacks.Reset();
  for (uint32_t i = 0; i < keys_.size(); ++i) {
    const auto& [row, bin, stack] = keys_[i];
    RowState& state = row_states_[row];
    bool added;
    if (state.bin == bin) state.stacks.FindOrAdd(stack, i, &added);
  }
  // Memory stays within twice the distinct entries however the samples are ordered.
  compact_at_ = std::max(size_t{1} << 16, keys_.size() * 2);
}

void SampleTimeline::OnHeader(const ProfileHeader& header) {
  StackTotals::OnHeader(header);
  if (!keys_.empty()) return;
  // Beyond 2^26 entries (2 GB of address space) growing is left to the arrays.
  const size_t count =
      static_cast<size_t>(std::min<uint64_t>(reserved_entries_, uint64_t{1} << 26));
  keys_.reserve(count);
  values_.reserve(count * header.types.size());
}

void SampleTimeline::OnSample(const Sample& sample) {
  StackTotals::OnSample(sample);
  if (!sample.time_nanos || width_ <= 0 || bins_ == 0) return;
  timed_samples_ += SamplesIn(sample);  // counted as every report counts samples
  const uint32_t row = Row(sample);
  auto bin_of = [&](int64_t time) -> uint32_t {
    if (time <= origin_) return 0;
    const __int128 bin = (static_cast<__int128>(time) - origin_) / width_;
    return static_cast<uint32_t>(std::min<__int128>(bin, bins_ - 1));
  };
  const int64_t time = *sample.time_nanos;
  const int64_t duration = sample.duration_nanos.value_or(0);
  const uint32_t first = bin_of(time);
  int64_t end = time;  // the last nanosecond the sample covers
  if (duration > 0) AddSaturating(&end, duration - 1);
  const uint32_t last = bin_of(end);
  if (first == last) {
    Add(row, first, sample);
    return;
  }
  // A long sample: its part in each bin, cut as prof-filter --time cuts it.
  for (uint32_t bin = first; bin <= last; ++bin) {
    ResolvedWindow window;
    window.from = bin == 0 ? INT64_MIN : origin_ + static_cast<int64_t>(bin) * width_;
    window.to = bin + 1 == bins_ ? INT64_MAX : origin_ + static_cast<int64_t>(bin + 1) * width_;
    Sample part = sample;
    if (CutToWindow(window, &part)) Add(row, bin, part);
  }
}

}  // namespace proftools
