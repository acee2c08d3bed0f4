// StackTotals that also bins each timed sample onto a timeline, per source and thread, for
// prof-html's timeline and time brush: a bounded number of bins per row, each holding the sums
// per stack of the samples (or, for a sample with a DURATION, the part of it) that fall in it,
// cut exactly as prof-filter --time cuts (CutToWindow), so that a brush on bin edges gives the
// totals of `prof-text --time` on the same edges. Memory grows with rows × bins × stacks at
// most, never with samples.
#ifndef PROFTOOLS_COMMON_REPORT_HTML_SAMPLE_TIMELINE_H_
#define PROFTOOLS_COMMON_REPORT_HTML_SAMPLE_TIMELINE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/base/flat_index.h"
#include "common/base/recent_slots.h"
#include "common/report/stack_totals.h"

namespace proftools {

class SampleTimeline : public StackTotals {
 public:
  // Bins of `width` nanoseconds from `origin`, `bins` of them (later samples go in the last).
  // `keying` as StackTotals's (kExact for the call graph's tags).
  SampleTimeline(int64_t origin, int64_t width, uint32_t bins,
                 LabelKeying keying = LabelKeying::kNone)
      : StackTotals(keying), origin_(origin), width_(width), bins_(bins) {}
  void OnSample(const Sample& sample) override;
  // Room for `entries` entries (the timed samples a first pass counted, a bound for profiles
  // of distinct stacks): the entries' arrays then do not grow by copies. Address space only,
  // touched as entries come.
  void ReserveEntries(uint64_t entries) { reserved_entries_ = entries; }
  void OnHeader(const ProfileHeader& header) override;

  struct Entry {
    uint32_t row = 0;
    uint32_t bin = 0;
    uint64_t stack_id = 0;
    const int64_t* values = nullptr;  // one per type of the header
  };
  int64_t origin() const { return origin_; }
  int64_t width() const { return width_; }
  uint32_t bins() const { return bins_; }
  // Row names, "SOURCE THREAD", in order of first sample.
  const std::vector<std::string>& rows() const { return row_names_; }
  // Row labels, short: the thread's name and id ("worker-1 4243") when samples carry them (with
  // the source's file name after it when the profile has several sources), else the source's
  // file name.
  const std::vector<std::string>& row_labels() const { return row_labels_; }
  // Calls on_entry(const Entry&) for each entry: one per (row, bin, stack) with samples, in no
  // particular order (ordering a million of them was a tenth of prof-html's time, and the page
  // sums them by stack); the values are valid until the next sample.
  template <typename OnEntry>
  void ForEachEntry(OnEntry on_entry) const {
    if (repeats_) Compact();  // keys added twice are merged first
    const size_t types = header().types.size();
    for (uint32_t i = 0; i < keys_.size(); ++i) {
      const auto& [row, bin, stack_id] = keys_[i];
      on_entry(Entry{row, bin, stack_id, values_.data() + size_t{i} * types});
    }
  }
  uint64_t timed_samples() const { return timed_samples_; }

 private:
  // The row of a sample's source and thread: the last few label sets seen are remembered, as
  // samples take turns between a few threads and naming the row costs strings a sample.
  uint32_t Row(const Sample& sample);
  uint32_t NewRow(const Sample& sample);
  void Add(uint32_t row, uint32_t bin, const Sample& sample);
  // Sorts the entries by (row, bin, stack) and sums those of one key: entries are appended,
  // found again only among their row's current bin (see rows_state_), so that a later sample of
  // an earlier bin adds an entry of a key that may be there already.
  void Compact() const;
  // The entries as make(i) makes each, ordered by (row, bin), then by `less` within each.
  template <typename T, typename Make, typename Less>
  std::vector<T> InKeyOrder(Make make, Less less) const;

  int64_t origin_, width_;
  uint32_t bins_;
  std::map<std::string, uint32_t> row_ids_;
  std::vector<std::string> row_names_, row_labels_;
  std::map<uint64_t, uint32_t> threadless_row_;  // by source: its row of samples without a thread
  std::set<uint64_t> sources_with_threads_;
  struct RecentRow {
    uint64_t source_id = 0;
    std::vector<Label> labels;
    uint64_t labels_id = 0;  // the sample's Sample::labels_id: the same number, the same labels
    uint32_t row = 0;
  };
  RecentSlots<RecentRow> recent_rows_;
  // Per row, its current bin and that bin's entries by stack id. Samples come in time order per
  // thread in nearly every profile: a lookup is in a table as small as a bin's stacks, and
  // there is no table of every (row, bin, stack) (its size, about one entry a sample on a
  // profile of many stacks, was a tenth of prof-html's time in lookups, growth and page faults).
  struct RowState {
    uint32_t bin = UINT32_MAX;  // the current bin; UINT32_MAX before the row's first sample
    uint32_t last_bin = 0;      // the latest bin the row has had
    FlatIndex stacks;
  };
  // (Compact re-indexes the current bins: mutable with the entries.)
  mutable std::vector<RowState> row_states_;
  // The entries' keys and values in flat arrays (values: `types` per entry), so that an entry
  // costs no allocation of its own. Compacted (const: the same contents, merged) when their
  // number doubles, and by Entries().
  mutable std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> keys_;
  mutable std::vector<int64_t> values_;
  mutable size_t compact_at_ = size_t{1} << 16;
  // Whether a key may be there twice: a row went back to a bin it had had (samples out of time
  // order); when not, compacting has nothing to merge until the entries are ordered at the end.
  mutable bool repeats_ = false;
  uint64_t timed_samples_ = 0;
  uint64_t reserved_entries_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_HTML_SAMPLE_TIMELINE_H_
