// Stacks given parent-linked (common/model/parent_stacks.h), the producer kit's helper for the
// JSON and call-graph readers.
#include "common/model/parent_stacks.h"

#include <gtest/gtest.h>

#include "common/base/diagnostics.h"
#include "common/model/sink.h"

namespace proftools {
namespace parent_stacks_test {  // a namespace of its own: the tests build as one unit
namespace {

class ParentStacksTest : public ::testing::Test {
 protected:
  ProfileBuilder defs_;
  Interner interner_{&defs_};
  ParentLinkedStacks stacks_{&interner_, "in.json"};
  std::vector<uint64_t> LocationsOf(uint64_t stack) {
    return defs_.defs().stacks.Find(stack)->location_ids;
  }
};

TEST_F(ParentStacksTest, LeafFirstWithNodesInAnyOrder) {
  stacks_.Add(3, 2, 30);  // the child before its parent
  stacks_.Add(1, ParentLinkedStacks::kNoParent, ParentLinkedStacks::kNoLocation);  // "(root)"
  stacks_.Add(2, 1, 20);
  EXPECT_EQ(LocationsOf(stacks_.StackOf(3)), (std::vector<uint64_t>{30, 20}));
  EXPECT_EQ(LocationsOf(stacks_.StackOf(2)), (std::vector<uint64_t>{20}));
  EXPECT_EQ(defs_.defs().stacks.size(), 2u);
  // Asked again: the same id, and no stack added (remembered, interned once).
  const uint64_t three = stacks_.StackOf(3), two = stacks_.StackOf(2);
  EXPECT_NE(three, two);
  EXPECT_EQ(LocationsOf(three), (std::vector<uint64_t>{30, 20}));
  EXPECT_EQ(stacks_.StackOf(3), three);
  EXPECT_EQ(defs_.defs().stacks.size(), 2u);
  // Another input's nodes over the same interner, other node numbers in another order: the
  // same stacks are the same ids, a new one is a new id.
  ParentLinkedStacks other{&interner_, "other.json"};
  other.Add(7, ParentLinkedStacks::kNoParent, ParentLinkedStacks::kNoLocation);
  other.Add(8, 7, 20);
  other.Add(9, 8, 30);
  other.Add(10, 8, 40);
  EXPECT_EQ(other.StackOf(9), three);
  EXPECT_EQ(other.StackOf(8), two);
  EXPECT_EQ(defs_.defs().stacks.size(), 2u);
  const uint64_t four = other.StackOf(10);
  EXPECT_NE(four, three);
  EXPECT_NE(four, two);
  EXPECT_EQ(LocationsOf(four), (std::vector<uint64_t>{40, 20}));
  EXPECT_EQ(defs_.defs().stacks.size(), 3u);
}

TEST_F(ParentStacksTest, DeepChainsNeedNoRecursion) {
  constexpr uint64_t kDepth = 100000;
  stacks_.Add(0, ParentLinkedStacks::kNoParent, 1);
  for (uint64_t n = 1; n < kDepth; ++n) stacks_.Add(n, n - 1, 1 + n % 7);
  EXPECT_EQ(LocationsOf(stacks_.StackOf(kDepth - 1)).size(), kDepth);
}

TEST_F(ParentStacksTest, CyclesAndMissingNodesAreErrorsNotHangs) {
  stacks_.Add(1, 1, 10);  // its own parent
  EXPECT_THROW(stacks_.StackOf(1), ProfError);
  stacks_.Add(2, 3, 10);
  stacks_.Add(3, 4, 10);
  stacks_.Add(4, 2, 10);  // 2 -> 3 -> 4 -> 2
  EXPECT_THROW(stacks_.StackOf(2), ProfError);
  stacks_.Add(5, 99, 10);  // a parent never defined
  EXPECT_THROW(stacks_.StackOf(5), ProfError);
  EXPECT_THROW(stacks_.StackOf(6), ProfError);  // never defined itself
  EXPECT_THROW(stacks_.Add(5, ParentLinkedStacks::kNoParent, 1), ProfError);  // twice
}

}  // namespace
}  // namespace parent_stacks_test
}  // namespace proftools
