// Per-source meta (formats/prof-text.md §4.2, §5.1): KEY@ID keys, and the table merges fold
// meta into, whose result must not depend on how inputs are grouped.
#include "common/model/source_meta.h"

#include <gtest/gtest.h>

namespace proftools {
namespace source_meta_test {  // a namespace of its own: the tests build as one unit
namespace {

ProfileHeader Header(std::vector<uint64_t> source_ids, std::vector<MetaEntry> meta) {
  ProfileHeader header;
  for (uint64_t id : source_ids) header.sources.push_back(Source{id, "t", "u", std::nullopt});
  header.meta = std::move(meta);
  return header;
}

TEST(SourceMeta, SplitsOnlyKeysNamingADeclaredSource) {
  const std::vector<uint64_t> ids = {1, 7};
  EXPECT_EQ(SplitSourceMetaKey("host@7", ids), std::make_pair(std::string("host"), uint64_t{7}));
  EXPECT_EQ(SplitSourceMetaKey("a@b@1", ids), std::make_pair(std::string("a@b"), uint64_t{1}));
  // Not a source of the file, a leading zero, no digits, no key: ordinary keys.
  EXPECT_EQ(SplitSourceMetaKey("host@2", ids).second, 0u);
  EXPECT_EQ(SplitSourceMetaKey("host@07", ids).second, 0u);
  EXPECT_EQ(SplitSourceMetaKey("host@", ids).second, 0u);
  EXPECT_EQ(SplitSourceMetaKey("@1", ids).second, 0u);
  EXPECT_EQ(SplitSourceMetaKey("host@1x", ids).second, 0u);
  EXPECT_EQ(SplitSourceMetaKey("host@99999999999999999999999", ids).second, 0u);
  EXPECT_EQ(SourceMetaKey("host", 3), "host@3");
  EXPECT_EQ(SourceMetaKey("host", 0), "host");
}

TEST(SourceMeta, PlainWhenEverySourceAgreesElsePerSource) {
  SourceMetaTable table;
  table.AddHeader(Header({1}, {{"host", "a"}, {"tool", "x"}}), {1});
  table.AddHeader(Header({1}, {{"host", "b"}, {"tool", "x"}}), {2});
  table.AddHeader(Header({}, {{"tool", "x"}}), {3});
  EXPECT_EQ(table.Entries(3, false),
            (std::vector<MetaEntry>{{"host@1", "a"}, {"host@2", "b"}, {"tool", "x"}}));
  // One source for all: the smallest value, plain.
  EXPECT_EQ(table.Entries(3, true), (std::vector<MetaEntry>{{"host", "a"}, {"tool", "x"}}));
}

TEST(SourceMeta, OwnValueBeatsThePlainOneAndSharedSourcesKeepTheSmallest) {
  SourceMetaTable table;
  // Source 2 of this input has its own filter; source 1 takes the plain one.
  table.AddHeader(Header({1, 2}, {{"f", "all"}, {"f@2", "mine"}}), {1, 2});
  // Another input's source that is the same as merged source 1, with a smaller value.
  table.AddHeader(Header({5}, {{"f", "abc"}}), {1});
  EXPECT_EQ(table.Entries(2, false), (std::vector<MetaEntry>{{"f@1", "abc"}, {"f@2", "mine"}}));
}

// Merging (a, b) then c gives the same entries as a, b and c at once: the merged header of a
// and b, read back with its sources 1 and 2, carries what a and b said.
TEST(SourceMeta, TreeEqualsFlat) {
  const ProfileHeader a = Header({1}, {{"f", "--focus x"}, {"host", "h"}});
  const ProfileHeader b = Header({1}, {{"f", "--ignore y"}, {"host", "h"}});
  const ProfileHeader c = Header({1}, {{"host", "g"}});
  SourceMetaTable flat;
  flat.AddHeader(a, {1});
  flat.AddHeader(b, {2});
  flat.AddHeader(c, {3});
  SourceMetaTable ab;
  ab.AddHeader(a, {1});
  ab.AddHeader(b, {2});
  const ProfileHeader merged_ab = Header({1, 2}, ab.Entries(2, false));
  SourceMetaTable tree;
  tree.AddHeader(merged_ab, {1, 2});
  tree.AddHeader(c, {3});
  EXPECT_EQ(tree.Entries(3, false), flat.Entries(3, false));
  EXPECT_EQ(flat.Entries(3, false), (std::vector<MetaEntry>{{"f@1", "--focus x"},
                                                            {"f@2", "--ignore y"},
                                                            {"host@1", "h"},
                                                            {"host@2", "h"},
                                                            {"host@3", "g"}}));
}

}  // namespace
}  // namespace source_meta_test
}  // namespace proftools
