// HashBytes: a function of the bytes alone (not their address), sensitive to every bit and to
// the length, and with low bits spread well enough to index a power-of-two table.
#include "common/base/bytes_hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace proftools {
namespace bytes_hash_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(HashBytes, DependsOnTheBytesNotWhereTheyAre) {
  for (size_t n = 0; n <= 70; ++n) {
    std::string a(n, 'x'), b(n + 3, 'y');
    for (size_t i = 0; i < n; ++i) a[i] = b[i + 3] = static_cast<char>(i * 37 + 11);
    EXPECT_EQ(HashBytes(a), HashBytes(std::string_view(b).substr(3))) << n;
  }
}

// Every length path (empty, 1-3, 4-7, 8-16, the 16-byte loop and its tail): flipping any one
// bit changes the hash, and so does changing the length by appending a NUL byte.
TEST(HashBytes, EveryBitAndTheLengthCount) {
  for (size_t n = 0; n <= 50; ++n) {
    std::string key(n, '\0');
    for (size_t i = 0; i < n; ++i) key[i] = static_cast<char>(i * 131 + 7);
    std::set<uint64_t> seen = {HashBytes(key)};
    for (size_t bit = 0; bit < 8 * n; ++bit) {
      std::string flipped = key;
      flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
      EXPECT_TRUE(seen.insert(HashBytes(flipped)).second) << "length " << n << " bit " << bit;
    }
    EXPECT_TRUE(seen.insert(HashBytes(key + std::string(1, '\0'))).second) << n;
  }
}

// Keys like the pprof reader's (packed varints that differ in a byte or two) spread evenly
// over the low bits: no bucket of a 2^16-slot table gets far more than its share.
TEST(HashBytes, LowBitsSpreadSimilarKeys) {
  constexpr size_t kBuckets = size_t{1} << 16;
  constexpr size_t kKeys = 4 * kBuckets;
  std::vector<uint32_t> count(kBuckets);
  std::string key(40, '\x05');
  for (uint32_t i = 0; i < kKeys; ++i) {
    key[10] = static_cast<char>(i & 0x7f);
    key[25] = static_cast<char>((i >> 7) & 0x7f);
    key[39] = static_cast<char>((i >> 14) + 1);  // distinct keys, a non-zero last byte
    ++count[HashBytes(key) & (kBuckets - 1)];
  }
  // Poisson with mean 4: a bucket of 25 or more is practically impossible for a good hash.
  EXPECT_LT(*std::max_element(count.begin(), count.end()), 25u);
  // About e^-4 (1.8%) of the buckets are empty.
  EXPECT_LT(std::count(count.begin(), count.end(), 0u), static_cast<long>(kBuckets / 25));
}

}  // namespace
}  // namespace bytes_hash_test
}  // namespace proftools
