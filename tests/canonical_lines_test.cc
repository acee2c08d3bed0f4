#include "common/text/canonical_lines.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/base/text_syntax.h"
#include "common/text/record_parser.h"

namespace proftools {
namespace canonical_lines_test {  // a namespace of its own: the tests build as one unit
namespace {

// What the general path makes of a line: whether it parses as a record of `kind`, and into what.
bool General(const std::string& line, RecordKind kind, Record* record, size_t sample_values = 0) {
  std::vector<std::string_view> tokens;
  std::string error;
  if (!Tokenize(line, &tokens, &error) || tokens.empty()) return false;
  RecordKind found;
  if (!RecordKindFromName(tokens[0], &found) || found != kind) return false;
  ParseFailure failure;
  return ParseRecord(kind, tokens, sample_values, record, &failure);
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
        "stack 1 # c", "stack 1\r", "stacks 1", "stack 1x", "stack 12345678901234567890",
        "stack 1 12345678901234567890 1", "stack 12345678x 1", "sample 1 1 - - 1"}) {
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

TEST(ParseCanonicalSample, ReadsTheCanonicalSpelling) {
  Record record;
  std::string_view labels = "x";
  ASSERT_TRUE(ParseCanonicalSample("sample 1 23 - - 3 30000000", 2, &record, &labels));
  EXPECT_EQ(record.kind, RecordKind::kSample);
  EXPECT_EQ(record.sample.source_id, 1u);
  EXPECT_EQ(record.sample.stack_id, 23u);
  EXPECT_FALSE(record.sample.time_nanos);
  EXPECT_FALSE(record.sample.duration_nanos);
  EXPECT_EQ(record.sample.values, (std::vector<int64_t>{3, 30000000}));
  EXPECT_TRUE(labels.empty());
  ASSERT_TRUE(ParseCanonicalSample("sample 2 5 0 -7 -1 0 123456789012345678", 3, &record, &labels));
  EXPECT_EQ(record.sample.time_nanos, int64_t{0});
  EXPECT_EQ(record.sample.duration_nanos, int64_t{-7});
  EXPECT_EQ(record.sample.values, (std::vector<int64_t>{-1, 0, 123456789012345678}));
  ASSERT_TRUE(ParseCanonicalSample("sample 2 5 1 -", 0, &record, &labels));
  EXPECT_EQ(record.sample.time_nanos, int64_t{1});
  EXPECT_TRUE(record.sample.values.empty());
  // Times in nanoseconds since 1970 have 19 digits; int64_t's range is the general path's.
  ASSERT_TRUE(
      ParseCanonicalSample("sample 1 2 1700000000001035795 - 9223372036854775807 "
                           "-9223372036854775808",
                           2, &record, &labels));
  EXPECT_EQ(record.sample.time_nanos, int64_t{1700000000001035795});
  EXPECT_EQ(record.sample.values, (std::vector<int64_t>{INT64_MAX, INT64_MIN}));
  // Labels: the rest of the line, unparsed.
  ASSERT_TRUE(ParseCanonicalSample("sample 1 2 - - 7 comm=\"a b\" tid=4", 1, &record, &labels));
  EXPECT_EQ(record.sample.values, (std::vector<int64_t>{7}));
  EXPECT_EQ(labels, "comm=\"a b\" tid=4");
}

TEST(ParseCanonicalSample, LeavesEverythingElseToTheGeneralPath) {
  Record record;
  std::string_view labels;
  for (const char* line :
       {"sample", "sample ", "sample 1 1 - -  1", "sample 1 1 - - 1 ", "sample 1 1 - - k=v",
        "sample 0 1 - - 1", "sample 1 1 -0 - 1", "sample 1 1 - - 01", "sample 1 1 - - 1\t",
        "sample 1 1 - -- 1", "sample 1 1 - - -", "sample 1 1 - - 12345678901234567890",
        "sample 1 1 - - 9223372036854775808", "sample 1 1 - - -9223372036854775809", "sample 1 1 -",
        "samples 1 1 - - 1", "sample 1 1 - -", "sample 1 1 - - 1=2", "stack 1 2 3 4 5"}) {
    EXPECT_FALSE(ParseCanonicalSample(line, 1, &record, &labels)) << line;
  }
  uint64_t source;
  std::optional<int64_t> time, duration;
  for (const char* line :
       {"sample 1 1 -0 - 1", "sample 1 1 - -- 1", "sample 1 1 -", "sample 0 1 - -",
        "sample 1 1 012 -", "sample 1 1 17000000000010357950 -", "sample 1 1 - -x"}) {
    EXPECT_FALSE(ParseCanonicalSampleTimes(line, &source, &time, &duration)) << line;
  }
}

// A random field: numbers of every length (some led by 0 or '-'), '-', or a label.
std::string RandomField(std::mt19937& random) {
  switch (random() % 8) {
    case 0:
      return "-";
    case 1:
      return "k=" + std::to_string(random() % 10);
    default: {
      std::string field = random() % 5 == 0 ? "-" : "";
      const size_t digits = 1 + random() % 21;
      for (size_t i = 0; i < digits; ++i) {
        // Mostly not led by 0, so that many fields are valid.
        field += static_cast<char>(
            '0' + (i == 0 && random() % 6 != 0 ? 1 + random() % 9 : random() % 10));
      }
      return field;
    }
  }
}

// Every line the fast path accepts without labels, the general path accepts with the same
// result; with labels, where the general path accepts the line, it reads the same fields, and
// labels that depend on their text alone (the text reader keeps them by their text).
TEST(ParseCanonicalSample, AgreesWithTheGeneralPath) {
  // Mostly single spaces and 4 or more fields, so that many lines are canonical.
  const std::string separators[] = {"  ", "\t", " #", "x"};
  std::mt19937 random(12);
  const auto separator = [&] { return random() % 12 != 0 ? " " : separators[random() % 4]; };
  int accepted = 0, with_labels = 0;
  for (int round = 0; round < 100000; ++round) {
    std::string line = "sample";
    const size_t fields = 3 + random() % 7;
    for (size_t i = 0; i < fields; ++i) line += separator() + RandomField(random);
    if (random() % 10 == 0) line += separator();
    const size_t values = random() % 4;
    Record fast;
    std::string_view labels;
    if (!ParseCanonicalSample(line, values, &fast, &labels)) continue;
    ++accepted;
    // The first pass over sample times reads the same SOURCE, TIME and DURATION.
    uint64_t source = 0;
    std::optional<int64_t> time, duration;
    ASSERT_TRUE(ParseCanonicalSampleTimes(line, &source, &time, &duration)) << line;
    EXPECT_EQ(source, fast.sample.source_id) << line;
    EXPECT_EQ(time, fast.sample.time_nanos) << line;
    EXPECT_EQ(duration, fast.sample.duration_nanos) << line;
    Record general;
    if (labels.empty()) {
      ASSERT_TRUE(General(line, RecordKind::kSample, &general, values)) << line;
      fast.sample.labels.clear();
      EXPECT_EQ(fast.sample, general.sample) << line;
      continue;
    }
    if (!General(line, RecordKind::kSample, &general, values)) continue;
    ++with_labels;
    fast.sample.labels = general.sample.labels;  // the labels are compared below
    EXPECT_EQ(fast.sample, general.sample) << line;
    std::string other_line = "sample 7 8 - -";
    for (size_t i = 0; i < values; ++i) other_line += " 0";
    other_line += " " + std::string(labels);
    Record other;
    ASSERT_TRUE(General(other_line, RecordKind::kSample, &other, values)) << other_line;
    EXPECT_EQ(other.sample.labels, general.sample.labels) << line;
  }
  EXPECT_GT(accepted, 1000);  // the test exercised the fast path
  EXPECT_GT(with_labels, 100);
}

}  // namespace
}  // namespace canonical_lines_test
}  // namespace proftools
