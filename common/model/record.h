// One record of the prof text format, as parsed from a line (formats/prof-text.md §4).
#ifndef PROFTOOLS_COMMON_MODEL_RECORD_H_
#define PROFTOOLS_COMMON_MODEL_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/model.h"

namespace proftools {

enum class RecordKind : uint8_t {
  // Preamble.
  kMeta,
  kComment,
  kTime,
  kDuration,
  kPeriod,
  kDocUrl,
  kDropFrames,
  kKeepFrames,
  kSource,
  kType,
  kDefaultType,
  // Body.
  kMapping,
  kFunction,
  kLocation,
  kStack,
  kSample,
};

// The record's keyword, e.g. "default_type".
const char* RecordKindName(RecordKind kind);
// Looks a keyword up; false when it names no record kind of this version.
bool RecordKindFromName(std::string_view name, RecordKind* kind);
bool IsPreamble(RecordKind kind);

// A parsed record. Only the members of its kind are meaningful; a reader reuses one Record for
// every line so that the vectors and strings inside keep their capacity.
struct Record {
  RecordKind kind = RecordKind::kMeta;
  MetaEntry meta;      // kMeta
  std::string text;    // kComment, kDocUrl, kDropFrames, kKeepFrames, kDefaultType
  int64_t number = 0;  // kTime, kDuration
  Period period;       // kPeriod
  Source source;       // kSource
  ValueType type;      // kType
  Mapping mapping;     // kMapping
  Function function;   // kFunction
  Location location;   // kLocation
  Stack stack;         // kStack
  Sample sample;       // kSample
};

// Applies a valid preamble record to the header being built.
void ApplyPreambleRecord(const Record& record, ProfileHeader* header);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_RECORD_H_
