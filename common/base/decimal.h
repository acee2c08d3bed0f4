// Decimal digits of unsigned integers, written straight into a caller's buffer. Inline and two
// digits per step from a table: prof text is mostly small ids (1 to 7 digits), and
// std::to_chars, out of line and measuring the length with a loop of its own, was a tenth of
// pprof2prof's time. The text is exactly std::to_chars's (tests/decimal_test.cc).
#ifndef PROFTOOLS_COMMON_BASE_DECIMAL_H_
#define PROFTOOLS_COMMON_BASE_DECIMAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace proftools {

// The longest: UINT64_MAX has 20 digits.
constexpr size_t kMaxDecimalDigits = 20;

// How many digits `value` has (1 for 0).
inline size_t DecimalLength(uint64_t value) {
  size_t n = 1;
  for (; value >= 10000; value /= 10000) n += 4;
  return n + (value >= 10) + (value >= 100) + (value >= 1000);
}

// Writes the digits of `value` at `out` (no terminator); returns the end. Numbers of more than
// 8 digits (nanosecond timestamps: 16 to 19) are cut into 8-digit blocks first, each written
// with 32-bit arithmetic, which is cheaper than 64-bit division by 100 at every step.
inline char* WriteDecimal(char* out, uint64_t value) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* const end = out + DecimalLength(value);
  char* p = end;
  while (value >= 100000000) {
    uint32_t block = static_cast<uint32_t>(value % 100000000);
    value /= 100000000;
    for (int i = 0; i < 4; ++i) {
      p -= 2;
      std::memcpy(p, kPairs + 2 * (block % 100), 2);
      block /= 100;
    }
  }
  uint32_t rest = static_cast<uint32_t>(value);
  while (rest >= 100) {
    p -= 2;
    std::memcpy(p, kPairs + 2 * (rest % 100), 2);
    rest /= 100;
  }
  if (rest >= 10) {
    std::memcpy(p - 2, kPairs + 2 * rest, 2);
  } else {
    p[-1] = static_cast<char>('0' + rest);
  }
  return end;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_DECIMAL_H_
