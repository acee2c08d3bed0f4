// kCpuProfileReader: one source of type "cpuprofile", the value types of V8ValueTypes.
#include "common/chrome/cpuprofile_codec.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

// The legacy form's times as the current form's: absolute `timestamps` (microseconds) as
// deltas from startTime; without them, the samples spread evenly from startTime to endTime, as
// DevTools spreads them (with a warning: those times are made up).
void ToDeltas(JsonDocument& json, const ReadContext& context, V8ProfileFields* fields) {
  if (!fields->samples) {
    json.Fail(
        "a legacy CPU profile (a tree under `head`) without `samples`: only hit counts "
        "per node, no samples to read",
        fields->head_byte);
  }
  const size_t n = fields->samples->size();
  std::vector<int64_t> deltas(n, 0);
  if (fields->timestamps_ns) {
    const std::vector<int64_t>& times = *fields->timestamps_ns;
    if (times.size() != n) {
      json.Fail(std::to_string(n) + " samples but " + std::to_string(times.size()) +
                    " timestamps: each sample needs its time",
                fields->samples_byte);
    }
    int64_t before = fields->start_ns.value_or(n > 0 ? times[0] : 0);
    if (!fields->start_ns) fields->start_ns = before;
    for (size_t i = 0; i < n; ++i) {
      if (__builtin_sub_overflow(times[i], before, &deltas[i])) {
        json.Fail("timestamps[" + std::to_string(i) + "]: too far from the time before it",
                  fields->samples_byte);
      }
      before = times[i];
    }
  } else if (n > 0) {
    if (!fields->start_ns || !fields->end_ns || *fields->end_ns <= *fields->start_ns) {
      json.Fail(
          "a legacy CPU profile whose samples have no `timestamps` and no startTime "
          "before its endTime to spread them over",
          fields->samples_byte);
    }
    const int64_t interval = (*fields->end_ns - *fields->start_ns) / static_cast<int64_t>(n);
    for (size_t i = 1; i < n; ++i) deltas[i] = interval;
    if (context.warnings != nullptr) {
      context.warnings->Warning(Diagnostic{
          Rule::kInput, json.name(), 0,
          "a legacy CPU profile without `timestamps`: its " + std::to_string(n) +
              " samples are spread evenly from startTime to endTime, as DevTools spreads "
              "them (their order is the file's; their times are not measured)"});
    }
  }
  fields->deltas_ns = std::move(deltas);
}

void ReadCpuProfile(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  V8Profile profile(input.name);
  V8ProfileFields fields;
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) {
    json.Fail(error, "the profile", "an object");
  }
  ReadV8ProfileObject(json, object, &profile, &fields);
  if (fields.legacy) {
    ToDeltas(json, context, &fields);
  } else if (fields.timestamps_ns && !fields.deltas_ns) {
    json.Fail(
        "`timestamps` in a profile with `nodes`: only the legacy form (a tree under "
        "`head`) has them; this one needs `timeDeltas`",
        fields.samples_byte);
  }
  if (!fields.samples) json.Fail("no `samples`: not a V8 CPU profile", 1);
  if (!fields.deltas_ns) {
    if (!fields.samples->empty()) {
      json.Fail("samples without `timeDeltas`: no times to weigh them by", fields.samples_byte);
    }
    fields.deltas_ns.emplace();
  }
  profile.AddSamples(std::move(*fields.samples), std::move(*fields.deltas_ns), fields.samples_byte);
  if (fields.start_ns) profile.SetStart(*fields.start_ns);
  if (fields.end_ns) profile.SetEnd(*fields.end_ns);
  if (profile.sample_count() == 0 && !context.allow_empty) {
    throw ProfError(
        input.name,
        "a CPU profile without samples (was the profiler stopped as soon as it started?)");
  }

  ProfileHeader header;
  header.sources.push_back(Source{1, "cpuprofile", context.uri, std::nullopt});
  header.types = V8ValueTypes();
  header.default_type = kV8DefaultType;
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), input.name);
  V8Profile::Unresolved unresolved;
  const uint64_t sent = profile.Convert(&interner, 1, {}, sink, &unresolved);
  V8Profile::Report(unresolved, sent, profile.sample_count(), input.name, context);
  sink->OnEnd();
}

}  // namespace

bool JsonStartsWith(std::string_view head, char c) {
  const size_t first = head.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && head[first] == c;
}

int SniffCpuProfile(std::string_view head, bool text) {
  if (!text || !JsonStartsWith(head, '{')) return kNotMine;
  if (Contains(head, "\"traceEvents\"") || Contains(head, "\"ph\"")) return kNotMine;
  // The legacy form: a tree under head, its nodes' call frames in their own fields and their
  // samples counted (a heap profile's nodes have selfSize instead).
  if (Contains(head, "\"head\"") && !Contains(head, "\"selfSize\"") &&
      Contains(head, "\"functionName\"")) {
    return Contains(head, "\"hitCount\"") ? kCertain : kLikely;
  }
  if (!Contains(head, "\"nodes\"")) return kNotMine;
  if (Contains(head, "\"samples\"") && Contains(head, "\"timeDeltas\"")) return kCertain;
  return Contains(head, "\"callFrame\"") ? kLikely : kNotMine;
}

const ReaderSpec kCpuProfileReader = {
    "cpuprofile",
    "a V8 CPU profile (.cpuprofile)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffCpuProfile,
    ReadCpuProfile,
};

}  // namespace proftools
