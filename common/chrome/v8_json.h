// The JSON of a V8 CPU profile's parts, shared by the .cpuprofile reader and the trace reader:
// nodes with their call frames, and the arrays of samples and time deltas.
#ifndef PROFTOOLS_COMMON_CHROME_V8_JSON_H_
#define PROFTOOLS_COMMON_CHROME_V8_JSON_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/chrome/v8_profile.h"
#include "common/json/json_document.h"

namespace proftools {

// What a Profiler.Profile object (or a trace chunk's `cpuProfile`) holds besides its nodes,
// which go straight into the profile.
struct V8ProfileFields {
  std::optional<std::vector<uint64_t>> samples;
  std::optional<std::vector<int64_t>> deltas_ns;
  uint64_t samples_byte = 0;  // where the samples array starts
  std::optional<int64_t> start_ns, end_ns;
};

// Reads a Profiler.Profile object's fields: `nodes` into `profile`, the rest into `fields`;
// other keys are skipped. Throws ProfError.
void ReadV8ProfileObject(JsonDocument& json, ondemand::object object, V8Profile* profile,
                         V8ProfileFields* fields);

// A trace event's args.data (Profile, ProfileChunk, CpuProfile): cpuProfile's nodes into
// `profile`, its samples, timeDeltas, startTime and endTime into `fields`. Throws ProfError.
void ReadV8EventData(JsonDocument& json, ondemand::object data, V8Profile* profile,
                     V8ProfileFields* fields);

// A node's callFrame: functionName, url, lineNumber, columnNumber (other keys skipped).
void ReadV8CallFrame(JsonDocument& json, JsonValue value, V8CallFrame* frame);

// An array of node ids (`samples`), of microseconds (`timeDeltas`), in nanoseconds.
std::vector<uint64_t> ReadNodeIds(JsonDocument& json, JsonValue value, std::string_view what);
// `expected`: how many to reserve room for (the samples' count: the two arrays go together).
std::vector<int64_t> ReadDeltas(JsonDocument& json, JsonValue value, std::string_view what,
                                size_t expected = 0);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8_JSON_H_
