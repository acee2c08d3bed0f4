// Decimal digits of unsigned integers, written straight into a caller's buffer. Inline, two
// digits per step from a table or eight in one word: prof text is mostly small ids (1 to 7 digits),
// and std::to_chars, out of line and measuring the length with a loop of its own, was a tenth of
// pprof2prof's time. The text is exactly std::to_chars's (tests/decimal_test.cc).
#ifndef PROFTOOLS_COMMON_BASE_DECIMAL_H_
#define PROFTOOLS_COMMON_BASE_DECIMAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace proftools {

// 10^n, for n from 0 to 18.
inline int64_t PowerOfTen(int n) {
  int64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// The longest: UINT64_MAX has 20 digits.
constexpr size_t kMaxDecimalDigits = 20;

// How many digits `value` has (1 for 0).
inline size_t DecimalLength(uint64_t value) {
  size_t n = 1;
  for (; value >= 10000; value /= 10000) n += 4;
  return n + (value >= 10) + (value >= 100) + (value >= 1000);
}

// The 8 digits of `block` (< 10^8, leading zeros kept) at `out`, all at once: the four pairs are
// found in parallel in the 16-bit lanes of one 64-bit word, by multiplications that stand for
// division by 100 and by 10 (exact for these ranges: tests/decimal_test.cc checks every block
// boundary and random blocks), and stored as one little-endian word. Nanosecond timestamps are
// 16 to 19 digits, so sample lines are mostly these.
inline void WriteEightDigits(char* out, uint32_t block) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the lanes are stored little-endian");
  // Lane 0 (the low 32 bits, written first) the upper four digits, lane 1 the lower four.
  const uint64_t halves = (block / 10000) | (static_cast<uint64_t>(block % 10000) << 32);
  const uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007FULL;  // lane / 100
  const uint64_t pairs = ((halves - 100 * hundreds) << 16) + hundreds;  // 16-bit lanes, 0..99
  uint64_t digits = ((pairs * 103) >> 10) & 0x000F000F000F000FULL;      // lane / 10
  digits += (pairs - 10 * digits) << 8;  // each lane: tens in its low byte, ones in its high
  digits |= 0x3030303030303030ULL;       // '0' + digit in every byte
  std::memcpy(out, &digits, 8);
}

// Writes the digits of `value` at `out` (no terminator); returns the end. Numbers below 10^8
// (ids, counts) two digits at a step from a table; longer ones (nanosecond timestamps) as that
// head followed by one or two blocks of WriteEightDigits.
inline char* WriteDecimal(char* out, uint64_t value) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  constexpr uint64_t kBlock = 100000000;
  uint32_t tail[2];
  int blocks = 0;
  if (value >= kBlock) {
    tail[blocks++] = static_cast<uint32_t>(value % kBlock);
    value /= kBlock;
    if (value >= kBlock) {
      tail[blocks++] = static_cast<uint32_t>(value % kBlock);
      value /= kBlock;
    }
  }
  uint32_t head = static_cast<uint32_t>(value);  // < 10^8 (at most 1844 when two blocks follow)
  char* const head_end = out + DecimalLength(head);
  char* p = head_end;
  while (head >= 100) {
    p -= 2;
    std::memcpy(p, kPairs + 2 * (head % 100), 2);
    head /= 100;
  }
  if (head >= 10) {
    std::memcpy(p - 2, kPairs + 2 * head, 2);
  } else {
    p[-1] = static_cast<char>('0' + head);
  }
  p = head_end;
  while (blocks > 0) {
    WriteEightDigits(p, tail[--blocks]);
    p += 8;
  }
  return p;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_DECIMAL_H_
