// A streaming sink that sums sample values per stack (for --traces, per stack and label set):
// the first step of every report. Memory grows with distinct stacks and definitions, never with
// the number of samples.
#ifndef PROFTOOLS_COMMON_REPORT_STACK_TOTALS_H_
#define PROFTOOLS_COMMON_REPORT_STACK_TOTALS_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/flat_index.h"
#include "common/base/id_table.h"
#include "common/base/recent_slots.h"
#include "common/model/sink.h"

namespace proftools {

class StackTotals : public DefinitionKeepingSink {
 public:
  // With `by_labels`, samples of one stack with other labels are other entries, each with its
  // labels rendered as pprof's -traces prints them (Entry::labels).
  explicit StackTotals(bool by_labels = false)
      : keying_(by_labels ? LabelKeying::kTraces : LabelKeying::kNone) {}
  // kExact: samples with other labels are other entries, each with the number of its labels
  // (label_set(entry)), for the call graph's tags.
  enum class LabelKeying { kNone, kTraces, kExact };
  explicit StackTotals(LabelKeying keying) : keying_(keying) {}

  void OnHeader(const ProfileHeader& header) override;
  void OnExpect(const ExpectedDefinitions& expected) override;
  void OnEnd() override;
  void OnSample(const Sample& sample) override;

  // 48 bytes: a call graph's profile has hundreds of thousands of entries, and what only a
  // difference or --traces has (base_values, labels) is kept apart.
  struct Entry {
    uint64_t stack_id = 0;
    uint64_t samples = 0;         // sample records with this stack
    std::vector<int64_t> values;  // sums, one per type
    // With a label keying: the number of the entry's labels, equal for equal labels.
    uint64_t label_id = 0;
  };
  // Stacks of the samples, in order of first appearance. Complete once OnEnd has come (asked for
  // before, with samples still to add: an internal error, not sums short of them).
  const std::vector<Entry>& entries() const {
    if (!pending_samples_.empty()) PendingError();
    return entries_;
  }
  // Sums of |value| over every sample: what reports give percentages of, as pprof's reports
  // (internal/report computeTotal) do, so that a profile with negative values (a live heap, a
  // difference) has the total pprof shows.
  const std::vector<int64_t>& total_values() const { return total_values_; }
  // The profile's samples, the one count every report shows as "N samples" (prof-text's
  // header, prof-svg's subtitle, prof-html): the total of the type named `samples` when the
  // profile has one, since a record may stand for several samples (a pprof sample is one per
  // distinct stack and label set, with its count in samples/count), else the sample records.
  uint64_t total_samples() const;
  // The samples one record stands for, as total_samples counts them.
  uint64_t SamplesIn(const Sample& sample) const;
  // The sample records (lines `sample`), whatever each stands for.
  uint64_t total_records() const { return total_records_; }
  // Per type, the sample records whose value of that type is not 0 (empty when unknown: a
  // difference): what "N samples" counts when not every record is of the shown type's kind.
  const std::vector<uint64_t>& samples_with_value() const { return samples_with_value_; }
  // Makes the totals those of a larger set of samples: those before frame filters dropped some,
  // as pprof's reports give percentages of the profile before -focus. `records` as
  // total_records, `with_value` as samples_with_value (empty: unknown).
  void SetTotals(uint64_t records, std::vector<int64_t> values,
                 std::vector<uint64_t> with_value = {});
  // Adds `samples` samples of stack `stack_id` (a stack defined here) worth `values`, and with
  // `base` (empty when there is none) the base's values of that stack: for building a profile
  // from others (diff_totals.h). The totals are left as they are.
  void AddEntry(uint64_t stack_id, uint64_t samples, const std::vector<int64_t>& values,
                const std::vector<int64_t>& base, const std::string& labels = "");
  // With by_labels (kTraces): one line per label key of an entry of entries(), `%10s:
  // VALUE...` sorted as pprof sorts them (string labels, then numeric ones); empty otherwise.
  const std::string& labels(const Entry& entry) const;
  // With --diff-base (diff_totals.h, is_diff()): an entry of entries() has `values` this
  // profile's minus the base's, and these (one per type) the base's alone; nullptr otherwise.
  const int64_t* base_values(const Entry& entry) const;
  // With LabelKeying::kExact: the labels of the entry's samples (kept once per label set: a
  // copy an entry was most of a large profile's memory); empty otherwise.
  const std::vector<Label>& label_set(const Entry& entry) const;
  bool by_labels() const { return keying_ != LabelKeying::kNone; }
  LabelKeying keying() const { return keying_; }
  // Whether the entries are differences from a base (diff_totals.h).
  bool is_diff() const { return is_diff_; }

 private:
  std::vector<Entry> entries_;
  // While samples are read, their sums per entry (entries × types) and counts, apart from the
  // entries: a sample touches 16 bytes of an array that stays in cache rather than an Entry of
  // 120 and its vector (a profile of 50,000 stacks: a cache miss or two a sample). OnEnd adds
  // them to the entries.
  std::vector<int64_t> pending_values_;
  std::vector<uint64_t> pending_samples_;
  void AddPending();
  [[noreturn]] static void PendingError();
  IdMap index_;  // stack id -> position in entries_
  std::vector<int64_t> total_values_;
  uint64_t total_records_ = 0;
  int samples_type_ = -1;  // the type named `samples`, -1 when there is none
  std::vector<uint64_t> samples_with_value_;
  bool is_diff_ = false;
  LabelKeying keying_ = LabelKeying::kNone;
  std::unordered_map<std::string, uint64_t> label_ids_;  // rendered labels -> a number
  std::vector<std::string> label_texts_;                 // kTraces: by number, the rendered
  // With is_diff_: the base's values, entries × types (AddEntry).
  std::vector<int64_t> base_values_;
  // The position of `entry` in entries_ (a reference into it, else a logic_error).
  size_t IndexOf(const Entry& entry) const;
  // label_ids_'s number of `rendered`, added when new (and *added then set).
  uint64_t LabelNumber(const std::string& rendered, bool* added = nullptr);
  std::vector<std::vector<Label>> label_sets_;  // kExact: by number
  // Keyed by labels, an entry is found through its stack: index_ gives the stack's first entry,
  // entry_next_ the next of the same stack (UINT32_MAX: none) and entry_label_ each one's labels'
  // number, in arrays of 8 bytes an entry that stay in cache (a table of every (stack, labels)
  // was a cache miss a sample: a tenth of prof-html's reading). A stack's label sets past the
  // first kChainedLabelSets go to labeled_index_ ((stack id, labels' number) -> entry).
  static constexpr size_t kChainedLabelSets = 8;
  std::vector<uint32_t> entry_next_, entry_label_;
  BasicFlatIndex<std::pair<uint64_t, uint64_t>> labeled_index_;
  // The label sets seen last, rendered and numbered: samples mostly take turns between a few
  // threads' label sets, and rendering and hashing them per sample was a tenth of a report.
  struct RecentLabels {
    std::vector<Label> labels;
    uint64_t labels_id = 0;  // the sample's Sample::labels_id
    std::string rendered;
    uint64_t id = 0;
  };
  RecentSlots<RecentLabels> recent_;

  const RecentLabels& LabelsOf(const Sample& sample);
  Entry& EntryWithLabels(uint64_t stack_id, const std::string& labels);  // rendered labels
  Entry& EntryOf(uint64_t stack_id, uint64_t label_id);
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_STACK_TOTALS_H_
