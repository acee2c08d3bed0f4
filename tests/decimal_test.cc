// WriteDecimal and DecimalLength: the same text as std::to_chars for every length, around
// every power of ten, at the extremes, and for random values.
#include "common/base/decimal.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstring>
#include <random>
#include <string>

namespace proftools {
namespace decimal_test {  // a namespace of its own: the tests build as one unit
namespace {

std::string Reference(uint64_t value) {
  char buf[kMaxDecimalDigits];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
}

void ExpectLikeToChars(uint64_t value) {
  char buf[kMaxDecimalDigits + 2];
  std::memset(buf, 'x', sizeof buf);
  char* end = WriteDecimal(buf + 1, value);
  const std::string expected = Reference(value);
  EXPECT_EQ(std::string(buf + 1, end), expected) << value;
  EXPECT_EQ(DecimalLength(value), expected.size()) << value;
  EXPECT_EQ(buf[0], 'x') << "wrote before the start: " << value;
  EXPECT_EQ(*end, 'x') << "wrote past the end: " << value;
}

TEST(WriteDecimal, SmallValuesAndEveryPowerOfTen) {
  for (uint64_t v = 0; v <= 1000; ++v) ExpectLikeToChars(v);
  for (uint64_t power = 10;; power *= 10) {  // up to 10^19, the largest that fits
    ExpectLikeToChars(power - 1);
    ExpectLikeToChars(power);
    ExpectLikeToChars(power + 1);
    if (power > UINT64_MAX / 10) break;
  }
  ExpectLikeToChars(UINT64_MAX);
  ExpectLikeToChars(UINT64_MAX - 1);
}

TEST(WriteDecimal, RandomValuesOfEveryLength) {
  std::mt19937_64 random(42);
  for (int i = 0; i < 20000; ++i) ExpectLikeToChars(random() >> (random() % 64));
}

TEST(WriteEightDigits, EveryBlockBoundaryAndRandomBlocks) {
  const auto expect = [](uint32_t block) {
    char buf[8];
    WriteEightDigits(buf, block);
    std::string expected = Reference(block);
    expected.insert(0, 8 - expected.size(), '0');
    EXPECT_EQ(std::string(buf, 8), expected) << block;
  };
  // Every value of each 4-digit half, with the other half at its extremes, covers every lane
  // value the divisions by 100 and by 10 meet.
  for (uint32_t half = 0; half < 10000; ++half) {
    expect(half);
    expect(half * 10000);
    expect(half * 10000 + 9999);
    expect(9999 * 10000 + half);
  }
  std::mt19937 random(7);
  for (int i = 0; i < 100000; ++i) expect(random() % 100000000);
}

}  // namespace
}  // namespace decimal_test
}  // namespace proftools
