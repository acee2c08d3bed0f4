#include "common/report/text/folded_lines.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"

namespace proftools {
namespace folded_lines_test {  // a namespace of its own: the tests build as one unit
namespace {

std::string Written(const FoldedLines& lines) {
  StringSink out;
  lines.Write(&out);
  return out.text();
}

TEST(FoldedLines, SumsEqualLinesAndLeavesOutZeroSumsAndEmptyLines) {
  FoldedLines lines;
  const uint32_t a = lines.Intern("a");
  const uint32_t b = lines.Intern("b");
  EXPECT_EQ(lines.Intern("a"), a);
  lines.Add({a, b}, 2);
  lines.Add({a, b}, 3);
  lines.Add({b}, 4);
  lines.Add({b}, -4);
  lines.Add({}, 7);
  lines.Add({lines.Intern("")}, 7);
  EXPECT_EQ(Written(lines), "a;b 5\n");
}

TEST(FoldedLines, SumsHoldAtTheInt64Limits) {
  FoldedLines lines;
  const uint32_t a = lines.Intern("a");
  lines.Add({a}, INT64_MAX);
  lines.Add({a}, 1);
  EXPECT_EQ(Written(lines), "a 9223372036854775807\n");
}

// The order must be exactly that of the joined lines compared bytewise (std::map<std::string>),
// though FoldedLines compares frame by frame: frames that are prefixes of each other and bytes
// just below and above ';' (':' and '<'), spaces, and bytes above 0x7f are where the two could
// disagree.
TEST(FoldedLines, OrderIsTheBytewiseOrderOfTheJoinedLines) {
  const std::vector<std::string> alphabet = {"a", "ab",        "a:",   "a<",  "a b", ":", "<",
                                             " ", "a\xc3\xa9", "\xff", "abc", "b",   ""};
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    FoldedLines lines;
    std::map<std::string, int64_t> expected;
    const int count = 1 + static_cast<int>(random() % 30);
    for (int i = 0; i < count; ++i) {
      const size_t depth = 1 + random() % 4;
      std::vector<uint32_t> ids;
      std::string joined;
      for (size_t k = 0; k < depth; ++k) {
        const std::string& frame = alphabet[random() % alphabet.size()];
        ids.push_back(lines.Intern(frame));
        joined += (k > 0 ? ";" : "") + frame;
      }
      const int64_t value = 1 + static_cast<int64_t>(random() % 5);
      lines.Add(ids, value);
      if (!joined.empty()) expected[joined] += value;
    }
    std::string want;
    for (const auto& [line, value] : expected) want += line + " " + std::to_string(value) + "\n";
    ASSERT_EQ(Written(lines), want) << "round " << round;
  }
}

}  // namespace
}  // namespace folded_lines_test
}  // namespace proftools
