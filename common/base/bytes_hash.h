// A hash of byte strings for hot in-memory tables (ViewIndex's stack keys): it reads 8 bytes at
// a time and mixes with one 64x64->128-bit multiply per 16 bytes (wyhash's construction), where
// std::hash<std::string_view> (libstdc++'s murmur-style _Hash_bytes) cost a tenth of
// pprof2prof's time on a large profile. The low bits are mixed as well as the high ones, so a
// table may take them as the bucket. Not for anything persisted: the values may change.
#ifndef PROFTOOLS_COMMON_BASE_BYTES_HASH_H_
#define PROFTOOLS_COMMON_BASE_BYTES_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace proftools {
namespace bytes_hash_internal {

// wyhash's constants: odd, with bits well spread.
constexpr uint64_t kSecret0 = 0xa0761d6478bd642full;
constexpr uint64_t kSecret1 = 0xe7037ed1a0b428dbull;
constexpr uint64_t kSecret2 = 0x8ebc6af09c88c6e3ull;

// The full 128-bit product folded to 64 bits: low and high halves both carry every input bit.
inline uint64_t Mix(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace bytes_hash_internal

inline uint64_t HashBytes(std::string_view bytes) {
  using namespace bytes_hash_internal;
  const char* p = bytes.data();
  size_t n = bytes.size();
  // The length goes in first, so the overlapping tail loads below cannot make keys of different
  // lengths collide.
  uint64_t h = Mix(kSecret0 ^ n, kSecret1);
  for (; n > 16; p += 16, n -= 16) h = Mix(Load64(p) ^ kSecret1, Load64(p + 8) ^ h);
  // The last 0 to 16 bytes, as two words (overlapping when fewer than 16 remain).
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    a = Load64(p);
    b = Load64(p + n - 8);
  } else if (n >= 4) {
    a = Load32(p);
    b = Load32(p + n - 4);
  } else if (n > 0) {
    const auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<uint8_t>(p[i])); };
    a = byte(0) << 16 | byte(n / 2) << 8 | byte(n - 1);
  }
  return Mix(a ^ kSecret1, b ^ h ^ kSecret2) ^ h;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_BYTES_HASH_H_
