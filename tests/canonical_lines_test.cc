#include "common/canonical_lines.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/record_parser.h"
#include "common/text_syntax.h"

namespace proftools {
namespace {

// What the general path makes of a line: whether it parses as a record of `kind`, and into what.
bool General(const std::string& line, RecordKind kind, Record* record) {
  std::vector<std::string_view> tokens;
  std::string error;
  if (!Tokenize(line, &tokens, &error) || tokens.empty()) return false;
  RecordKind found;
  if (!RecordKindFromName(tokens[0], &found) || found != kind) return false;
  ParseFailure failure;
  return ParseRecord(kind, tokens, record, &failure);
}

// Whether the fast path accepts `line`; when it does, the general path must accept it too,
// with the same result.
bool AcceptedAlike(const std::string& line) {
  Record fast;
  if (!ParseCanonicalStack(line, &fast)) return false;
  Record general;
  EXPECT_TRUE(General(line, RecordKind::kStack, &general)) << line;
  EXPECT_EQ(fast.stack.id, general.stack.id) << line;
  EXPECT_EQ(fast.stack.location_ids, general.stack.location_ids) << line;
  return true;
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

// Numbers of every length up to the limit, read 8 bytes at a time where the line allows.
TEST(ParseCanonicalStack, ReadsNumbersOfEveryLength) {
  Record record;
  ASSERT_TRUE(
      ParseCanonicalStack("stack 1 12345678 123456789 98765432 123456789012345678 9 "
                          "1234567 20 300 4000 50000 600000",
                          &record));
  EXPECT_EQ(record.stack.id, 1u);
  EXPECT_EQ(record.stack.location_ids,
            (std::vector<uint64_t>{12345678, 123456789, 98765432, 123456789012345678u, 9, 1234567,
                                   20, 300, 4000, 50000, 600000}));
}

TEST(ParseCanonicalStack, LeavesEverythingElseToTheGeneralPath) {
  Record record;
  for (const char* line :
       {"stack", "stack ", "stack 1 ", "stack  1", "stack 0", "stack 1 02", "stack\t1",
        "stack 1 # c", "stack 1\r", "stacks 1", "stack 1x", "stack 1234567890123456789",
        "stack 1 1234567890123456789 1", "stack 12345678x 1", "sample 1 1 - - 1"}) {
    EXPECT_FALSE(ParseCanonicalStack(line, &record)) << line;
  }
}

// Every line the fast path accepts, the general path accepts with the same result.
TEST(ParseCanonicalStack, AgreesWithTheGeneralPath) {
  const std::string alphabet = "0123456789 \t#x";
  std::mt19937 random(11);
  int accepted = 0;
  for (int round = 0; round < 40000; ++round) {
    std::string line = "stack ";
    const size_t length = random() % 48;
    for (size_t i = 0; i < length; ++i) {
      // Mostly digits and single spaces, so that many lines are canonical.
      line += random() % 4 != 0 ? alphabet[random() % 11] : alphabet[random() % alphabet.size()];
    }
    accepted += AcceptedAlike(line);
  }
  EXPECT_GT(accepted, 1000);  // the test exercised the fast path
}

// Long lines, across the 64-byte blocks the fast path scans: random ids of 1 to 20 digits
// (sometimes led by 0), now and then a stray byte.
TEST(ParseCanonicalStack, AgreesWithTheGeneralPathOnLongLines) {
  const std::string strays = "0 \tx#";
  std::mt19937 random(13);
  int accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = "stack";
    const size_t ids = random() % 60;
    for (size_t i = 0; i < ids; ++i) {
      line += ' ';
      const size_t digits = 1 + (random() % 8 == 0 ? random() % 20 : random() % 6);
      for (size_t k = 0; k < digits; ++k) {
        line += static_cast<char>(
            '0' + (k == 0 && random() % 50 != 0 ? 1 + random() % 9 : random() % 10));
      }
    }
    if (random() % 4 == 0 && line.size() > 6) {
      line[6 + random() % (line.size() - 6)] = strays[random() % strays.size()];
    }
    accepted += AcceptedAlike(line);
  }
  EXPECT_GT(accepted, 1000);  // the test exercised the fast path
}

}  // namespace
}  // namespace proftools
