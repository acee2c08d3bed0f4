// prof-filter's engine, and prof-text's filter options: a ProfileSink that applies a FilterSpec
// to the stream and passes the filtered profile on, with only the definitions it still uses.
//
// Per sample, in this order: --coalesce (runs of one thread become long samples), --time and
// --last (cut to the window, values of long samples scaled), label filters, stack transforms
// (the profile's drop_frames, frame filters, --collapse-recursion: frame_pipeline.h), then the
// value plan (--derive, --types). Memory grows
// with definitions, stacks and (for --coalesce) threads, never with samples.
#ifndef PROFTOOLS_COMMON_FILTER_PROFILE_FILTER_H_
#define PROFTOOLS_COMMON_FILTER_PROFILE_FILTER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/id_table.h"
#include "common/base/saturating.h"
#include "common/filter/coalescer.h"
#include "common/filter/definition_emitter.h"
#include "common/filter/filter_spec.h"
#include "common/filter/label_filter.h"
#include "common/filter/stack_transform.h"
#include "common/filter/time_window.h"
#include "common/filter/value_plan.h"
#include "common/model/sink.h"

namespace proftools {

// What a first pass over the input tells the filter: each source's span (for windows relative
// to it) and the median gap between a thread's samples (for --coalesce's default GAP).
class FilterPrepass : public DiscardingSink {
 public:
  explicit FilterPrepass(const FilterSpec& spec) : spec_(spec) {}
  // Whether `spec` needs this pass at all.
  static bool Needed(const FilterSpec& spec);

  void OnSample(const Sample& sample) override;
  // What OnSample records of a timed sample when only the spans are needed (NeedsLabels false).
  void AddTime(uint64_t source_id, int64_t time, int64_t duration) {
    spans_[source_id].Add(time, duration);
  }
  // Whether the pass needs whole samples (their labels, for --coalesce's median gap), or only
  // their sources and times (AddTime).
  bool NeedsLabels() const { return spec_.coalesce.enabled && !spec_.coalesce.gap_nanos; }

  const std::unordered_map<uint64_t, SourceSpan>& spans() const { return spans_; }
  int64_t median_gap() const { return gaps_.Median(); }

 private:
  const FilterSpec& spec_;
  std::unordered_map<uint64_t, SourceSpan> spans_;
  GapStatistics gaps_;
};

class ProfileFilter : public DefinitionKeepingSink {
 public:
  // `prepass` (may be null when FilterPrepass::Needed is false) must outlive this. `name` names
  // the input in messages.
  ProfileFilter(const FilterSpec& spec, const FilterPrepass* prepass, ProfileSink* next,
                std::string name);
  ~ProfileFilter() override;

  void OnHeader(const ProfileHeader& header) override;
  void OnExpect(const ExpectedDefinitions& expected) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

  uint64_t samples_read() const { return samples_read_; }
  uint64_t samples_written() const { return samples_written_; }
  // The samples that reached the frame filters (after coalescing, time and labels), and their
  // values (as written, summed as magnitudes like StackTotals' totals): what reports give
  // percentages of, as pprof does with -focus.
  uint64_t samples_before_frames() const { return samples_before_frames_; }
  const std::vector<int64_t>& values_before_frames() const { return values_before_frames_; }
  // Per type, those samples whose value of it is not 0 (StackTotals::samples_with_value).
  const std::vector<uint64_t>& samples_with_value_before_frames() const {
    return samples_with_value_before_frames_;
  }

 private:
  void AfterCoalesce(const Sample& sample);
  // --time and --last: the preamble's duration (and time) become the window's.
  void WindowTheHeader(ProfileHeader* out);
  const ResolvedWindow& WindowOf(uint64_t source_id);
  uint64_t OutputStack(uint64_t stack_id);  // 0: the stack's samples are dropped

  const FilterSpec& spec_;
  const FilterPrepass* prepass_;
  ProfileSink* next_;
  std::string name_;
  std::vector<std::unique_ptr<StackTransform>> transforms_;
  // Nothing to do (a report's reading of a profile without drop_frames): the stream passes
  // through as it is, definitions included.
  bool pass_through_ = false;
  std::unique_ptr<DefinitionEmitter> emitter_;
  std::unique_ptr<Coalescer> coalescer_;
  std::unique_ptr<ValuePlan> values_;
  LabelFilter labels_;
  std::unordered_map<uint64_t, ResolvedWindow> windows_;
  IdMap stacks_;  // input stack id -> output stack id + 1 (0: dropped)
  std::vector<FrameRef> frames_;
  Sample work_, out_;
  uint64_t samples_read_ = 0;
  uint64_t samples_written_ = 0;
  uint64_t samples_before_frames_ = 0;
  std::vector<int64_t> values_before_frames_;
  std::vector<uint64_t> samples_with_value_before_frames_;
  uint64_t untimed_ = 0;
};

// The meta key under which a filtered profile records what was applied.
inline constexpr const char* kFilterMetaKey = "proftools.filter";

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_PROFILE_FILTER_H_
