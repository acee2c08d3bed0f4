#include "common/jfr/jfr_chunk.h"

#include <algorithm>
#include <cmath>

#include "common/jfr/jfr_input.h"

namespace proftools {
namespace {

int64_t Truncated(double nanos) {
  if (!(std::fabs(nanos) < 9.2e18)) return nanos < 0 ? INT64_MIN : INT64_MAX;
  return static_cast<int64_t>(nanos);
}

}  // namespace

int64_t JfrChunk::TimeNanos(int64_t ticks) const {
  const double per_nano = static_cast<double>(ticks_per_second) / 1e9;
  const double delta = static_cast<double>(ticks) - static_cast<double>(start_ticks);
  const int64_t offset = Truncated(delta / per_nano);
  int64_t time = 0;
  if (__builtin_add_overflow(start_nanos, offset, &time)) return offset < 0 ? INT64_MIN : INT64_MAX;
  return time;
}

int64_t JfrChunk::DurationNanos(int64_t ticks) const {
  return Truncated(static_cast<double>(ticks) / (static_cast<double>(ticks_per_second) / 1e9));
}

JfrChunk ReadJfrChunk(const JfrBytes& bytes, const std::string& name, uint64_t start) {
  JfrInput in(bytes, &name, start, bytes.end());
  const uint64_t left = bytes.end() - start;  // all that is left in the file when it is less
  if (bytes.data.substr(start - bytes.base, 4) != kJfrMagic.substr(0, std::min<size_t>(4, left))) {
    in.Fail(start == 0 ? "not a JFR recording: no FLR\\0 magic"
                       : "not a JFR chunk: no FLR\\0 magic where the previous chunk ends");
  }
  if (left < kJfrChunkHeaderSize) {
    in.Fail("a chunk header of " + std::to_string(left) + " bytes (" +
            std::to_string(kJfrChunkHeaderSize) + " belong here: a truncated recording?)");
  }
  in.Seek(start + 4);
  JfrChunk chunk;
  chunk.start = start;
  chunk.major = static_cast<uint16_t>(in.BigEndian(2));
  chunk.minor = static_cast<uint16_t>(in.BigEndian(2));
  if (chunk.major != 2) {
    in.FailAt(start + 4, "JFR version " + std::to_string(chunk.major) + "." +
                             std::to_string(chunk.minor) +
                             " (2.x is read: JDK 11 and later, async-profiler)");
  }
  const uint64_t size = in.BigEndian(8);
  const uint64_t pools = in.BigEndian(8);
  const uint64_t metadata = in.BigEndian(8);
  chunk.start_nanos = static_cast<int64_t>(in.BigEndian(8));
  chunk.duration_nanos = static_cast<int64_t>(in.BigEndian(8));
  chunk.start_ticks = static_cast<int64_t>(in.BigEndian(8));
  chunk.ticks_per_second = static_cast<int64_t>(in.BigEndian(8));
  if (size < kJfrChunkHeaderSize || size > left) {
    in.FailAt(start + 8, "a chunk size of " + std::to_string(size) + " bytes, where " +
                             std::to_string(left) +
                             " are left in the file (a truncated recording, or one still "
                             "being written?)");
  }
  chunk.end = start + size;
  if (metadata < kJfrChunkHeaderSize || metadata >= size) {
    in.FailAt(start + 24, "a metadata offset of " + std::to_string(metadata) +
                              " outside the chunk's events (a chunk still being written?)");
  }
  if (pools != 0 && (pools < kJfrChunkHeaderSize || pools >= size)) {
    in.FailAt(start + 16,
              "a constant-pool offset of " + std::to_string(pools) + " outside the chunk's events");
  }
  if (chunk.start_nanos < 0) {
    in.FailAt(start + 32, "a chunk starting " + std::to_string(chunk.start_nanos) +
                              " ns before 1970 (prof text's times are not negative)");
  }
  if (chunk.ticks_per_second <= 0) {
    in.FailAt(start + 56,
              "a clock of " + std::to_string(chunk.ticks_per_second) + " ticks per second");
  }
  chunk.metadata = start + metadata;
  chunk.pools = pools == 0 ? 0 : start + pools;
  return chunk;
}

}  // namespace proftools
