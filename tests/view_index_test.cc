// ViewIndex: ids in order of insertion, equal bytes found again across growth, distinct keys
// never confused (including keys that are prefixes of others and the empty key).
#include "common/base/view_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>

namespace proftools {
namespace view_index_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(ViewIndex, IdsInInsertionOrderAndStableAcrossGrowth) {
  std::deque<std::string> keys;  // the bytes must outlive the index
  ViewIndex index;
  bool inserted = false;
  for (int i = 0; i < 100000; ++i) {
    keys.push_back(std::to_string(i * 7919));
    EXPECT_EQ(index.Intern(keys.back(), &inserted), static_cast<uint64_t>(i + 1));
    EXPECT_TRUE(inserted);
  }
  for (int i = 0; i < 100000; i += 997) {
    const std::string copy = std::to_string(i * 7919);  // other memory, same bytes
    EXPECT_EQ(index.Intern(copy, &inserted), static_cast<uint64_t>(i + 1));
    EXPECT_FALSE(inserted);
  }
}

TEST(ViewIndex, PrefixesAndTheEmptyKeyAreDistinct) {
  const std::string abc = "abc";
  ViewIndex index;
  bool inserted;
  const uint64_t empty = index.Intern(std::string_view(), &inserted);
  const uint64_t a = index.Intern(std::string_view(abc).substr(0, 1), &inserted);
  const uint64_t ab = index.Intern(std::string_view(abc).substr(0, 2), &inserted);
  const uint64_t whole = index.Intern(abc, &inserted);
  EXPECT_EQ(empty, 1u);
  EXPECT_EQ(a, 2u);
  EXPECT_EQ(ab, 3u);
  EXPECT_EQ(whole, 4u);
  EXPECT_EQ(index.Intern("", &inserted), empty);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(index.Intern(std::string("\0", 1), &inserted), 5u);  // a NUL byte is not empty
}

// The two-step form (Prefetch, then Intern with the hash) shares ids with the one-step form,
// and prefetching into an empty table is harmless.
TEST(ViewIndex, HashedInternMatchesIntern) {
  const std::string a = "stack a", b = "stack b";
  ViewIndex index;
  bool inserted;
  index.Prefetch(HashBytes(a));
  EXPECT_EQ(index.Intern(a, HashBytes(a), &inserted), 1u);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(index.Intern(a, &inserted), 1u);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(index.Intern(b, &inserted), 2u);
  index.Prefetch(HashBytes(b));
  EXPECT_EQ(index.Intern(b, HashBytes(b), &inserted), 2u);
  EXPECT_FALSE(inserted);
}

}  // namespace
}  // namespace view_index_test
}  // namespace proftools
