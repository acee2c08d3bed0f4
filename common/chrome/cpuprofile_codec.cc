// kCpuProfileReader: one source of type "cpuprofile", the value types of V8ValueTypes.
#include "common/chrome/cpuprofile_codec.h"

#include <utility>

#include "common/base/strings.h"
#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

void ReadCpuProfile(Input& input, const ReadContext& context, ProfileSink* sink) {
  JsonDocument json(input, context.max_input_size, "JSON");
  V8Profile profile(input.name);
  V8ProfileFields fields;
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) {
    json.Fail(error, "the profile", "an object");
  }
  ReadV8ProfileObject(json, object, &profile, &fields);
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
  profile.Convert(&interner, 1, {}, sink);
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
