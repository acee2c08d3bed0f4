// speedscope's value units (file-format-spec.ts: none, nanoseconds, microseconds, milliseconds,
// seconds, bytes) and ours, both ways: what the reader's values become and what the writer
// calls a value type's unit. One table, so that a file written and read back keeps its type.
#ifndef PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_UNITS_H_
#define PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/model.h"

namespace proftools {

// What the reader makes of a unit: the value type its values go to and how many of that
// type's unit one of speedscope's is. Times become `time/nanoseconds` (so that profiles of
// several time units share one type and evented profiles give TIME and DURATION), bytes
// `space/bytes`, none `weight/count` (speedscope says only that they are numbers).
struct SpeedscopeUnit {
  const char* name;  // speedscope's spelling
  const char* type;  // our value type's name
  const char* unit;  // and unit
  int64_t factor;    // ours per one of speedscope's
  bool is_time;
};

// The unit speedscope spells `name`, or nullptr when it is none of its six.
const SpeedscopeUnit* FindSpeedscopeUnit(std::string_view name);

// What the writer calls a value type's unit: the speedscope unit and the integer that turns a
// value into it (a time in its own unit when speedscope has it, minutes and hours in seconds,
// memory in bytes; anything else is a plain number, `none`).
struct WrittenUnit {
  const char* name;
  int64_t factor;
};
WrittenUnit SpeedscopeUnitFor(const std::string& unit);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_UNITS_H_
