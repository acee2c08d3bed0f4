#include "common/base/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace proftools {
namespace radix_sort_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(BitsBelowTest, CountsTheBitsOfTheLargestKey) {
  EXPECT_EQ(BitsBelow(0), 0);
  EXPECT_EQ(BitsBelow(1), 0);
  EXPECT_EQ(BitsBelow(2), 1);
  EXPECT_EQ(BitsBelow(3), 2);
  EXPECT_EQ(BitsBelow(4), 2);
  EXPECT_EQ(BitsBelow(5), 3);
  EXPECT_EQ(BitsBelow(uint64_t{1} << 40), 40);
  EXPECT_EQ(BitsBelow((uint64_t{1} << 40) + 1), 41);
  EXPECT_EQ(BitsBelow(UINT64_MAX), 64);
}

// (key, place in the input): equal keys must keep their places' order.
using Record = std::pair<uint64_t, uint32_t>;

std::vector<Record> RandomRecords(size_t count, uint64_t limit, uint32_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Record> records(count);
  for (uint32_t i = 0; i < count; ++i) records[i] = {random() % limit, i};
  return records;
}

void ExpectSortedAsStableSort(std::vector<Record> records, int key_bits) {
  std::vector<Record> expected = records;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Record& a, const Record& b) { return a.first < b.first; });
  StableRadixSort(&records, key_bits, [](const Record& r) { return r.first; });
  EXPECT_EQ(records, expected);
}

TEST(StableRadixSortTest, SortsByKeyKeepingTheOrderOfEqualKeys) {
  // One pass (8 bits), two uneven ones (12 bits), three (24 bits, as a call graph of 3,000
  // nodes), and keys of 62 bits (the largest edge key).
  ExpectSortedAsStableSort(RandomRecords(10000, 200, 1), BitsBelow(200));
  ExpectSortedAsStableSort(RandomRecords(10000, 4000, 2), BitsBelow(4000));
  ExpectSortedAsStableSort(RandomRecords(50000, 9000000, 3), BitsBelow(9000000));
  ExpectSortedAsStableSort(RandomRecords(20000, uint64_t{1} << 62, 4), 62);
}

TEST(StableRadixSortTest, LeavesAloneWhatHasNothingToSort) {
  std::vector<Record> none;
  StableRadixSort(&none, 10, [](const Record& r) { return r.first; });
  EXPECT_TRUE(none.empty());
  // No key bits: every key is 0, and the order stays.
  std::vector<Record> zeros = {{0, 2}, {0, 0}, {0, 1}};
  StableRadixSort(&zeros, 0, [](const Record& r) { return r.first; });
  EXPECT_EQ(zeros, (std::vector<Record>{{0, 2}, {0, 0}, {0, 1}}));
}

TEST(StableRadixSortTest, SortsOnlyTheKeyNotTheRestOfTheRecord) {
  // The key is the record's value shifted (as the call graph's steps keep flags in the low
  // bits): records whose flags differ but keys agree stay in input order.
  std::vector<uint64_t> steps = {(5u << 2) | 3, (1u << 2) | 0, (5u << 2) | 0, (1u << 2) | 2};
  StableRadixSort(&steps, 3, [](uint64_t step) { return step >> 2; });
  EXPECT_EQ(steps,
            (std::vector<uint64_t>{(1u << 2) | 0, (1u << 2) | 2, (5u << 2) | 3, (5u << 2) | 0}));
}

}  // namespace
}  // namespace radix_sort_test
}  // namespace proftools
