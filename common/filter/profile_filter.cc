#include "common/filter/profile_filter.h"

#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/filter/frame_pipeline.h"
#include "common/model/source_meta.h"

namespace proftools {
namespace {

// The sampling interval in nanoseconds, when the profile declares one in a unit of time.
int64_t PeriodNanos(const Period& period) {
  int64_t factor;
  if (period.value <= 0 || UnitKindOf(period.type.unit, &factor) != UnitKind::kTime) return 0;
  int64_t nanos;
  return __builtin_mul_overflow(period.value, factor, &nanos) ? INT64_MAX : nanos;
}

}  // namespace

bool FilterPrepass::Needed(const FilterSpec& spec) {
  // Every time window: the preamble's duration becomes the window's (WindowTheHeader).
  return spec.time.active() || (spec.coalesce.enabled && !spec.coalesce.gap_nanos);
}

void FilterPrepass::OnSample(const Sample& sample) {
  if (!sample.time_nanos) return;
  AddTime(sample.source_id, *sample.time_nanos, sample.duration_nanos.value_or(0));
  if (NeedsLabels()) gaps_.Add(sample);
}

ProfileFilter::ProfileFilter(const FilterSpec& spec, const FilterPrepass* prepass,
                             ProfileSink* next, std::string name)
    : spec_(spec), prepass_(prepass), next_(next), name_(std::move(name)), labels_(spec.labels) {}

ProfileFilter::~ProfileFilter() = default;

void ProfileFilter::OnHeader(const ProfileHeader& header) {
  DefinitionKeepingSink::OnHeader(header);
  ProfileHeader out = header;
  values_ = std::make_unique<ValuePlan>(spec_.values, header, &out);
  values_before_frames_.assign(out.types.size(), 0);
  samples_with_value_before_frames_.assign(out.types.size(), 0);
  bool dropped_frames;
  transforms_ = BuildFrameTransforms(spec_.frames, header, name_, &dropped_frames);
  if (!spec_.description.empty()) {
    const std::string description =
        spec_.description + (dropped_frames ? " (and the profile's drop_frames)" : "");
    // Filtered before: say both, oldest first, for every source (a merge of inputs filtered
    // differently has proftools.filter@N per source, §4.2); sources without a description of
    // their own get the plain key.
    std::vector<uint64_t> ids;
    for (const Source& source : out.sources) ids.push_back(source.id);
    bool appended_plain = false;
    size_t sources_with_own = 0;
    for (MetaEntry& meta : out.meta) {
      const auto [key, source] = SplitSourceMetaKey(meta.key, ids);
      if (key != kFilterMetaKey) continue;
      meta.value += "; " + description;
      if (source == 0)
        appended_plain = true;
      else
        ++sources_with_own;
    }
    if (!appended_plain && (sources_with_own < ids.size() || ids.empty())) {
      out.meta.push_back({kFilterMetaKey, description});
    }
  }
  if (spec_.time.active()) WindowTheHeader(&out);
  if (spec_.coalesce.enabled) {
    std::vector<int> split_types;
    for (const std::string& type : spec_.coalesce.split_on) {
      const int index = header.TypeIndex(type);
      if (index < 0) {
        std::string types;
        for (const ValueType& t : header.types)
          types += (types.empty() ? "" : ", ") + Printable(t.type);
        throw UsageError("--split-on: no value type " + Printable(type) + " (the types are " +
                         types + ")");
      }
      split_types.push_back(index);
    }
    // GAP: as given, else the sampling interval (the period, else the median gap) with half an
    // interval of slack: real samplers are late (background 003's example samples every 1.4 ms
    // at a declared 1 ms).
    int64_t gap = 0;
    if (spec_.coalesce.gap_nanos) {
      gap = *spec_.coalesce.gap_nanos;
    } else {
      const int64_t interval =
          PeriodNanos(header.period) > 0 ? PeriodNanos(header.period) : prepass_->median_gap();
      gap = interval > INT64_MAX / 3 * 2 ? INT64_MAX : interval + interval / 2;
    }
    coalescer_ = std::make_unique<Coalescer>(gap, std::move(split_types),
                                             [this](const Sample& s) { AfterCoalesce(s); });
  }
  next_->OnHeader(out);
  pass_through_ = !spec_.active() && transforms_.empty();
  emitter_ = std::make_unique<DefinitionEmitter>(defs_, next_);
}

void ProfileFilter::OnMapping(const Mapping& mapping) {
  pass_through_ ? next_->OnMapping(mapping) : DefinitionKeepingSink::OnMapping(mapping);
}

void ProfileFilter::OnFunction(const Function& function) {
  pass_through_ ? next_->OnFunction(function) : DefinitionKeepingSink::OnFunction(function);
}

void ProfileFilter::OnLocation(const Location& location) {
  pass_through_ ? next_->OnLocation(location) : DefinitionKeepingSink::OnLocation(location);
}

void ProfileFilter::OnExpect(const ExpectedDefinitions& expected) {
  pass_through_ ? next_->OnExpect(expected) : DefinitionKeepingSink::OnExpect(expected);
}

void ProfileFilter::OnStack(const Stack& stack) {
  pass_through_ ? next_->OnStack(stack) : DefinitionKeepingSink::OnStack(stack);
}

void ProfileFilter::WindowTheHeader(ProfileHeader* out) {
  // A source covers `duration` from its first sample (or to its last sample's end, when later):
  // what of that the window keeps is the new duration (the longest over the sources), so that
  // "Total samples = 730ms (73%)" is the window's share. The time moves to the window's start
  // with one source; with several, each has its own clock.
  if (!out->duration_nanos || prepass_ == nullptr) return;
  int64_t longest = -1, start_shift = 0;
  size_t timed_sources = 0;
  for (const auto& [source_id, span] : prepass_->spans()) {
    if (span.empty()) continue;
    ++timed_sources;
    const ResolvedWindow& window = WindowOf(source_id);
    const int64_t covered_end = std::max(span.end, *out->duration_nanos > INT64_MAX - span.first
                                                       ? INT64_MAX
                                                       : span.first + *out->duration_nanos);
    const int64_t from = std::max(window.from, span.first);
    // --last D is the last D of the samples: it ends with them.
    const int64_t to = std::min(window.to, spec_.time.last_nanos ? span.end : covered_end);
    const int64_t kept = to > from ? static_cast<int64_t>(static_cast<__int128>(to) - from) : 0;
    longest = std::max(longest, kept);
    start_shift = from > span.first ? from - span.first : 0;
  }
  if (longest < 0) return;  // no timed sample: nothing to measure the window against
  out->duration_nanos = std::min(longest, *out->duration_nanos);
  if (timed_sources == 1 && out->time_nanos && start_shift <= INT64_MAX - *out->time_nanos) {
    *out->time_nanos += start_shift;
  }
}

const ResolvedWindow& ProfileFilter::WindowOf(uint64_t source_id) {
  auto it = windows_.find(source_id);
  if (it != windows_.end()) return it->second;
  SourceSpan span;
  if (prepass_ != nullptr) {
    auto found = prepass_->spans().find(source_id);
    if (found != prepass_->spans().end()) span = found->second;
  }
  return windows_.emplace(source_id, ResolveWindow(spec_.time, span)).first->second;
}

uint64_t ProfileFilter::OutputStack(uint64_t stack_id) {
  uint64_t cached;
  if (stacks_.Find(stack_id, &cached)) return cached;
  uint64_t out = 0;
  if (transforms_.empty()) {
    out = emitter_->Stack(stack_id);
  } else {
    emitter_->Frames(stack_id, &frames_);
    bool keep = true;
    for (auto& transform : transforms_) {
      keep = transform->Apply(defs_, &frames_);
      if (!keep) break;
    }
    if (keep) out = emitter_->StackOfFrames(frames_);
  }
  stacks_.Insert(stack_id, out, &cached);
  return out;
}

void ProfileFilter::OnSample(const Sample& sample) {
  ++samples_read_;
  if (pass_through_) {
    ++samples_before_frames_;
    ++samples_written_;
    for (size_t i = 0; i < sample.values.size() && i < values_before_frames_.size(); ++i) {
      AddMagnitudeSaturating(&values_before_frames_[i], sample.values[i]);
      samples_with_value_before_frames_[i] += sample.values[i] != 0;
    }
    next_->OnSample(sample);
    return;
  }
  if (coalescer_) {
    coalescer_->Add(sample);
  } else {
    AfterCoalesce(sample);
  }
}

void ProfileFilter::AfterCoalesce(const Sample& sample) {
  const Sample* current = &sample;
  if (spec_.time.active()) {
    if (!sample.time_nanos) {
      ++untimed_;
      if (!spec_.time.keep_untimed) return;
    } else {
      work_ = sample;
      if (!CutToWindow(WindowOf(sample.source_id), &work_)) return;
      current = &work_;
    }
  }
  if (!labels_.Keep(*current)) return;
  if (values_->identity()) {
    out_.values = current->values;
  } else {
    values_->Apply(current->values, &out_.values);
  }
  ++samples_before_frames_;
  for (size_t i = 0; i < out_.values.size() && i < values_before_frames_.size(); ++i) {
    AddMagnitudeSaturating(&values_before_frames_[i], out_.values[i]);
    samples_with_value_before_frames_[i] += out_.values[i] != 0;
  }
  const uint64_t stack_id = OutputStack(current->stack_id);
  if (stack_id == 0) return;
  out_.source_id = current->source_id;
  out_.stack_id = stack_id;
  out_.time_nanos = current->time_nanos;
  out_.duration_nanos = current->duration_nanos;
  out_.labels = current->labels;
  labels_.RewriteLabels(&out_);
  ++samples_written_;
  next_->OnSample(out_);
}

void ProfileFilter::OnEnd() {
  if (coalescer_) coalescer_->Finish();
  if (untimed_ > 0 && !spec_.time.keep_untimed) {
    throw ProfError(name_, std::to_string(untimed_) +
                               (untimed_ == 1 ? " sample has" : " samples have") +
                               " no time: --time and --last select by sample time "
                               "(--keep-untimed keeps such samples)");
  }
  next_->OnEnd();
}

}  // namespace proftools
