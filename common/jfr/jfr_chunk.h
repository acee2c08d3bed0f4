// A JFR chunk's header (68 bytes, big-endian): magic "FLR\0", version 2.x, the chunk's size,
// the offsets (from the chunk's start) of its last constant-pool event and of its metadata
// event, its start in nanoseconds since the epoch and in ticks, and the tick rate: the clock
// that turns the ticks of its events into times. A file is one or more chunks back to back.
#ifndef PROFTOOLS_COMMON_JFR_JFR_CHUNK_H_
#define PROFTOOLS_COMMON_JFR_JFR_CHUNK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/jfr/jfr_input.h"

namespace proftools {

inline constexpr uint64_t kJfrChunkHeaderSize = 68;
inline constexpr std::string_view kJfrMagic{"FLR\0", 4};

struct JfrChunk {
  uint64_t start = 0;  // offsets in the file
  uint64_t end = 0;
  uint16_t major = 0, minor = 0;
  uint64_t pools = 0;     // the last constant-pool event, in the file
  uint64_t metadata = 0;  // the metadata event, in the file
  int64_t start_nanos = 0;
  int64_t duration_nanos = 0;
  int64_t start_ticks = 0;
  int64_t ticks_per_second = 0;

  // As the JDK converts them (jdk.jfr.internal.consumer.TimeConverter): through a double
  // ticks-per-nanosecond, truncated, so that our times and durations equal `jfr print`'s.
  int64_t TimeNanos(int64_t ticks) const;
  int64_t DurationNanos(int64_t ticks) const;
};

// The chunk at `start` of the file, whose bytes from there `bytes` holds (the whole chunk, or
// all that is left of the file when that is less): its header checked (magic, version, size
// and offsets inside the file and past the header). Errors name `name` and the byte.
JfrChunk ReadJfrChunk(const JfrBytes& bytes, const std::string& name, uint64_t start);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_CHUNK_H_
