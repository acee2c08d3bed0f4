#include "common/record_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/text_syntax.h"

namespace proftools {
namespace {

// What the general path makes of a line: whether it parses as a stack, and into what.
bool GeneralStack(const std::string& line, Record* record) {
  std::vector<std::string_view> tokens;
  std::string error;
  if (!Tokenize(line, &tokens, &error) || tokens.empty() || tokens[0] != "stack") return false;
  ParseFailure failure;
  return ParseRecord(RecordKind::kStack, tokens, record, &failure);
}

TEST(ParseCanonicalStack, ReadsTheCanonicalSpelling) {
  Record record;
  ASSERT_TRUE(ParseCanonicalStack("stack 12 3 45 6", &record));
  EXPECT_EQ(record.kind, RecordKind::kStack);
  EXPECT_EQ(record.stack.id, 12u);
  EXPECT_EQ(record.stack.location_ids, (std::vector<uint64_t>{3, 45, 6}));
  ASSERT_TRUE(ParseCanonicalStack("stack 7", &record));
  EXPECT_EQ(record.stack.id, 7u);
  EXPECT_TRUE(record.stack.location_ids.empty());
}

TEST(ParseCanonicalStack, LeavesEverythingElseToTheGeneralPath) {
  Record record;
  for (const char* line : {"stack", "stack ", "stack 1 ", "stack  1", "stack 0", "stack 1 02",
                           "stack\t1", "stack 1 # c", "stack 1\r", "stacks 1", "stack 1x",
                           "stack 1234567890123456789", "sample 1 1 - - 1"}) {
    EXPECT_FALSE(ParseCanonicalStack(line, &record)) << line;
  }
}

// Every line the fast path accepts, the general path accepts with the same result.
TEST(ParseCanonicalStack, AgreesWithTheGeneralPath) {
  const std::string alphabet = "0123456789 \t#x";
  std::mt19937 random(11);
  int accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = "stack ";
    const size_t length = random() % 24;
    for (size_t i = 0; i < length; ++i) {
      // Mostly digits and single spaces, so that many lines are canonical.
      line += random() % 4 != 0 ? alphabet[random() % 11] : alphabet[random() % alphabet.size()];
    }
    Record fast;
    if (!ParseCanonicalStack(line, &fast)) continue;
    ++accepted;
    Record general;
    ASSERT_TRUE(GeneralStack(line, &general)) << line;
    EXPECT_EQ(fast.stack.id, general.stack.id) << line;
    EXPECT_EQ(fast.stack.location_ids, general.stack.location_ids) << line;
  }
  EXPECT_GT(accepted, 1000);  // the test exercised the fast path
}

}  // namespace
}  // namespace proftools
