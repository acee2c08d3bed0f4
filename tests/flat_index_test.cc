// FlatIndex: every key found again with its index after growth and after Reserve (which
// rehashes what is there), keys that differ only in their high bits told apart.
#include "common/base/flat_index.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace proftools {
namespace flat_index_test {  // a namespace of its own: the tests build as one unit
namespace {

uint64_t KeyOf(uint32_t i) {
  return (uint64_t{i % 1000} << 32) | (i / 1000);
}

TEST(FlatIndex, KeysKeepTheirIndicesThroughGrowthAndReserve) {
  FlatIndex index;
  bool added = false;
  for (uint32_t i = 0; i < 50000; ++i) {
    if (i == 20000) index.Reserve(200000);  // a rehash with 20,000 keys in it
    if (i == 30000) index.Reserve(10);      // smaller than it is: nothing to do
    EXPECT_EQ(index.FindOrAdd(KeyOf(i), i, &added), i);
    EXPECT_TRUE(added);
  }
  EXPECT_EQ(index.size(), 50000u);
  for (uint32_t i = 0; i < 50000; ++i) {
    ASSERT_EQ(index.Find(KeyOf(i)), i);
    EXPECT_EQ(index.FindOrAdd(KeyOf(i), 7, &added), i);
    EXPECT_FALSE(added);
  }
  EXPECT_EQ(index.Find(KeyOf(50000)), FlatIndex::kAbsent);
}

TEST(FlatIndex, ReserveOnAnEmptyIndexThenAdd) {
  FlatIndex index;
  index.Reserve(1000);
  bool added = false;
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(index.FindOrAdd(i * 2654435761u, i, &added), i);
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(index.Find(i * 2654435761u), i);
}

}  // namespace
}  // namespace flat_index_test
}  // namespace proftools
