// speedscope's file format (src/lib/file-format-spec.ts in jlfwong/speedscope; the JSON schema
// https://www.speedscope.app/file-format-schema.json) as it stands in the JSON: the shared frames
// and each profile's fields, numbers as the file spells them, each with where it is for
// messages. Fields come in any order (`shared` after `profiles`, `type` after `events`), so the
// whole file is read before anything is converted (speedscope_codec). Objects are walked in
// order (ForEachField): nothing here searches for a key.
#ifndef PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_FILE_H_
#define PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_FILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json/json_document.h"

namespace proftools {

inline constexpr const char* kSpeedscopeSchema =
    "https://www.speedscope.app/file-format-schema.json";

// A JSON number: exact when the file wrote an integer that fits 64 bits, else a double.
struct JsonNumber {
  bool is_integer = true;
  int64_t integer = 0;
  double real = 0;
};

// The number `value` holds, or a ProfError naming `what`.
JsonNumber ReadJsonNumber(JsonDocument& json, JsonValue value, std::string_view what);

struct SpeedscopeFrame {
  std::string name;
  std::string file;
  std::optional<int64_t> line, col;
  uint64_t byte = 0;
};

struct SpeedscopeEvent {
  bool open = false;  // "O"; else "C"
  uint64_t frame = 0;
  JsonNumber at;
  uint64_t byte = 0;
};

struct SpeedscopeProfile {
  std::string type;  // "sampled", "evented" ("" when missing)
  std::optional<std::string> name;
  std::string unit;  // "" when missing
  std::optional<JsonNumber> start, end;
  // sampled: the frames of sample i are stack_frames[stack_ends[i-1] .. stack_ends[i]), root
  // first; samples_byte[i] where it is.
  bool has_samples = false, has_weights = false;
  std::vector<uint64_t> stack_frames;
  std::vector<size_t> stack_ends;
  std::vector<uint64_t> sample_bytes;
  std::vector<JsonNumber> weights;
  uint64_t weights_byte = 0;
  // evented
  bool has_events = false;
  std::vector<SpeedscopeEvent> events;
  uint64_t byte = 0;
};

struct SpeedscopeFile {
  std::optional<std::string> schema;
  std::optional<std::string> name, exporter;
  std::optional<int64_t> active_profile_index;
  bool has_shared = false, has_frames = false;
  std::vector<SpeedscopeFrame> frames;
  bool has_profiles = false;
  std::vector<SpeedscopeProfile> profiles;
};

// Reads the document's top-level object. Throws ProfError ("FILE: byte N: what") for JSON that
// is not this shape: a field of the wrong type, a frame index that is not an integer, an event
// type other than "O" and "C". Unknown keys are skipped, as speedscope skips them.
SpeedscopeFile ReadSpeedscopeFile(JsonDocument& json);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_FILE_H_
