// Unsigned LEB128 varints (protobuf's), written into a caller's buffer: the merge spool's
// records and the interner's keys (stacks, locations, functions) are made of them.
#ifndef PROFTOOLS_COMMON_BASE_VARINT_H_
#define PROFTOOLS_COMMON_BASE_VARINT_H_

#include <cstddef>
#include <cstdint>

namespace proftools {

inline constexpr size_t kMaxVarintBytes = 10;

// Writes `value` at `at`, which has room for kMaxVarintBytes; returns where it ends.
inline char* WriteVarint(char* at, uint64_t value) {
  while (value >= 0x80) {
    *at++ = static_cast<char>(value | 0x80);
    value >>= 7;
  }
  *at++ = static_cast<char>(value);
  return at;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_VARINT_H_
