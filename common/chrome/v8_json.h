// The JSON of a V8 CPU profile's parts, shared by the .cpuprofile reader and the trace reader:
// nodes with their call frames, and the arrays of samples and time deltas.
#ifndef PROFTOOLS_COMMON_CHROME_V8_JSON_H_
#define PROFTOOLS_COMMON_CHROME_V8_JSON_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
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
  // The legacy form (a tree under `head`, V8 before 2016 and Node <= 10's inspector exports):
  // `timestamps` (absolute microseconds, in ns) instead of timeDeltas, and startTime and
  // endTime in seconds (start_s_ns, end_s_ns: in ns).
  bool legacy = false;
  std::optional<std::vector<int64_t>> timestamps_ns;
  std::optional<int64_t> start_s_ns, end_s_ns;
  uint64_t head_byte = 0;
};

// Reads a Profiler.Profile object's fields: `nodes` into `profile`, the rest into `fields`;
// other keys are skipped. Throws ProfError.
void ReadV8ProfileObject(JsonDocument& json, ondemand::object object, V8Profile* profile,
                         V8ProfileFields* fields);

// A trace event's args.data (Profile, ProfileChunk, CpuProfile): cpuProfile's nodes into
// `profile`, its samples, timeDeltas, startTime and endTime into `fields`. Throws ProfError.
void ReadV8EventData(JsonDocument& json, ondemand::object data, V8Profile* profile,
                     V8ProfileFields* fields);

// Reads a tree of nodes nested in `children` arrays (a heap profile's `head`, a legacy CPU
// profile's) forward only and without recursion (a tree may be deeper than the call stack):
// `open(parent)` as a node starts, with what `open` returned for its parent (kNoV8Parent for
// the head), returns the node's index; `field(node, key, value)` for each field but children;
// `close(node)` as it ends. Throws ProfError.
inline constexpr size_t kNoV8Parent = SIZE_MAX;
void ReadNestedV8Tree(JsonDocument& json, JsonValue head, const std::function<size_t(size_t)>& open,
                      const std::function<void(size_t, std::string_view, JsonValue)>& field,
                      const std::function<void(size_t)>& close);

// A node's callFrame: functionName, url, lineNumber, columnNumber (other keys skipped).
void ReadV8CallFrame(JsonDocument& json, JsonValue value, V8CallFrame* frame);

// An array of node ids (`samples`), of microseconds (`timeDeltas`), in nanoseconds.
std::vector<uint64_t> ReadNodeIds(JsonDocument& json, JsonValue value, std::string_view what);
// `expected`: how many to reserve room for (the samples' count: the two arrays go together).
std::vector<int64_t> ReadDeltas(JsonDocument& json, JsonValue value, std::string_view what,
                                size_t expected = 0);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8_JSON_H_
