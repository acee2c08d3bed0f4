#include "common/text/text_writer.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/test_util.h"

namespace proftools {
namespace text_writer_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::Canonicalize;
using testing::Parse;

// The body of canonical text: everything after the preamble's last line and the comment block.
std::string Body(const std::string& canonical) {
  std::string out;
  size_t pos = 0;
  while (pos < canonical.size()) {
    const size_t end = canonical.find('\n', pos);
    const std::string line = canonical.substr(pos, end - pos);
    pos = end + 1;
    for (const char* kind : {"mapping ", "function ", "location ", "stack ", "sample "}) {
      if (line.rfind(kind, 0) == 0) out += line + "\n";
    }
  }
  return out;
}

TEST(CanonicalWriter, InterleavesDefinitionsBeforeFirstUseAndRenumbers) {
  const std::string text =
      "proftext 1.0\n"
      "source 40 manual x -\n"
      "type samples count\n"
      "mapping 77 0x1000 0x2000 0x0 lib.so \"\" -\n"
      "function 30 unused \"\" \"\" 0\n"
      "function 20 b \"\" \"\" 0\n"
      "function 10 a \"\" \"\" 0\n"
      "location 9 77 0x1010 - 20:2\n"
      "location 8 - 0x0 - 10:1\n"
      "stack 5 8\n"
      "stack 6 9 8\n"
      "sample 40 6 - - 1\n"
      "sample 40 5 - - 2\n";
  EXPECT_EQ(Body(Canonicalize(text)),
            "mapping 1 0x1000 0x2000 0x0 lib.so \"\" -\n"
            "function 1 b \"\" \"\" 0\n"
            "location 1 1 0x1010 - 1:2\n"
            "function 2 a \"\" \"\" 0\n"
            "location 2 - 0x0 - 2:1\n"
            "stack 1 1 2\n"
            "sample 1 1 - - 1\n"
            "stack 2 2\n"
            "sample 1 2 - - 2\n"
            "function 3 unused \"\" \"\" 0\n");
}

TEST(CanonicalWriter, UnusedDefinitionsComeLastByKindInInputOrder) {
  const std::string text = testing::Preamble() +
                           "function 2 f2 \"\" \"\" 0\n"
                           "location 3 - 0x3 - 2:1\n"
                           "mapping 4 0x0 0x0 0x0 m \"\" -\n"
                           "function 1 f1 \"\" \"\" 0\n"
                           "stack 7 3\n";
  EXPECT_EQ(Body(Canonicalize(text)),
            "mapping 1 0x0 0x0 0x0 m \"\" -\n"
            "function 1 f2 \"\" \"\" 0\n"
            "function 2 f1 \"\" \"\" 0\n"
            "location 1 - 0x3 - 1:1\n"
            "stack 1 1\n");
}

// The writer keeps the last defined stack apart from the others: whichever place a stack waits
// in, it is written at its first use, and the unused ones at the end in input order.
TEST(CanonicalWriter, StacksDefinedEarlierOrLastAreWrittenAlike) {
  const std::string text = testing::Preamble() +
                           "function 1 f \"\" \"\" 0\n"
                           "location 1 - 0x1 - 1:1\n"
                           "location 2 - 0x2 - 1:2\n"
                           "stack 30 1\n"
                           "stack 10 2 1\n"
                           "stack 20 2\n"
                           "sample 1 10 - - 1\n"
                           "sample 1 10 - - 2\n";
  EXPECT_EQ(Body(Canonicalize(text)),
            "function 1 f \"\" \"\" 0\n"
            "location 1 - 0x2 - 1:2\n"
            "location 2 - 0x1 - 1:1\n"
            "stack 1 1 2\n"
            "sample 1 1 - - 1\n"
            "sample 1 1 - - 2\n"
            "stack 2 2\n"
            "stack 3 1\n");
}

// Stack lines copy each location's " ID" from a per-id cache: the text is the same whether an
// id is cached, converted every time (ids past the cache: ten million locations in real use,
// a smaller bound here), or both in one line.
TEST(CanonicalWriter, CachedLocationIdsWriteTheSameText) {
  std::string text = testing::Preamble() + "function 1 f \"\" \"\" 0\n";
  for (int id = 1; id <= 150; ++id) {
    text += "location " + std::to_string(id) + " - 0x" + std::to_string(id) + " - 1:1\n";
  }
  std::mt19937 random(3);
  for (int stack = 1; stack <= 300; ++stack) {
    text += "stack " + std::to_string(stack);
    for (int depth = stack % 9; depth > 0; --depth)
      text += " " + std::to_string(1 + random() % 150);
    text += "\nsample 1 " + std::to_string(stack) + " - - 1\n";
  }
  const Profile profile = Parse(text);
  const std::string expected = ToCanonicalText(profile);
  EXPECT_NE(expected.find(" 150"), std::string::npos);  // ids of 1 to 3 digits
  for (uint64_t cached : {0, 1, 9, 10, 50, 99, 100}) {
    StringSink out;
    CanonicalWriter writer(&out, cached);
    EmitProfile(profile, writer);
    EXPECT_EQ(out.text(), expected) << "cached ids below " << cached;
  }
}

TEST(CanonicalWriter, PreambleIsInFixedOrderWithMetaSorted) {
  const std::string text =
      "proftext 1.0\n"
      "type cpu nanoseconds\n"
      "default_type cpu\n"
      "source 2 perf \"a b\" 5\n"
      "keep_frames k\n"
      "meta z 1\n"
      "comment second?\n"
      "period cpu nanoseconds 10\n"
      "meta a 2\n"
      "comment \"first, in input order\"\n"
      "duration 7\n"
      "drop_frames d\n"
      "time 6\n"
      "doc_url u\n";
  const std::string canonical = Canonicalize(text);
  const std::string expected_preamble =
      "meta a 2\n"
      "meta z 1\n"
      "comment second?\n"
      "comment \"first, in input order\"\n"
      "time 6\n"
      "duration 7\n"
      "period cpu nanoseconds 10\n"
      "doc_url u\n"
      "drop_frames d\n"
      "keep_frames k\n"
      "source 1 perf \"a b\" 5\n"
      "type cpu nanoseconds\n"
      "default_type cpu\n";
  ASSERT_GE(canonical.size(), expected_preamble.size());
  EXPECT_EQ(canonical.substr(canonical.size() - expected_preamble.size()), expected_preamble);
  EXPECT_EQ(canonical.rfind("proftext 1.0\n# record kinds", 0), 0u);
}

TEST(CanonicalWriter, ColumnCommentNamesTheTypes) {
  const std::string canonical =
      Canonicalize("proftext 1.0\ntype samples count\ntype \"wall time\" nanoseconds\n");
  EXPECT_NE(canonical.find("#   sample SOURCE STACK TIME DURATION samples/count "
                           "\"wall time/nanoseconds\" [KEY=VALUE...]\n"),
            std::string::npos);
}

TEST(CanonicalWriter, CanonicalTextIsAFixedPoint) {
  const std::string once = Canonicalize(
      "proftext 1.0\n"
      "source 9 manual x -\n"
      "type samples count\n"
      "function 5 \"a b\" \"\" \"\" 0\n"
      "location 5 - 0x0 - 5:1:2\n"
      "stack 5 5 5\n"
      "sample 9 5 1 2 3 \"k k\"=\"v\" n=1:u\n");
  EXPECT_EQ(Canonicalize(once), once);
}

TEST(CanonicalWriter, PeriodIsWrittenOnlyWhenSet) {
  Profile p;
  p.header.types.push_back({"samples", "count"});
  EXPECT_EQ(ToCanonicalText(p).find("\nperiod "), std::string::npos);
  p.header.period.value = 5;
  EXPECT_NE(ToCanonicalText(p).find("\nperiod \"\" \"\" 5\n"), std::string::npos);
}

}  // namespace
}  // namespace text_writer_test
}  // namespace proftools
