// --timeline: every sample lands in the bucket of its TIME, a long sample is spread over the
// buckets it spans, and a source's buckets add up to its total exactly.
#include "common/report/text/timeline.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/text/text_reader.h"
#include "tests/test_util.h"

namespace proftools {
namespace timeline_test {  // a namespace of its own: the tests build as one unit
namespace {

// Rows of the CSV output: one value per bucket of source 1.
std::vector<int64_t> Buckets(const std::string& profile, int64_t bucket) {
  std::map<uint64_t, SourceSpan> spans;
  {
    MemoryStream stream(profile);
    struct Spans : DiscardingSink {
      std::map<uint64_t, SourceSpan>* spans;
      void OnSample(const Sample& s) override {
        if (s.time_nanos) (*spans)[s.source_id].Add(*s.time_nanos, s.duration_nanos.value_or(0));
      }
    } scan;
    scan.spans = &spans;
    ReadText(&stream, "x", &scan);
  }
  TimelineOptions options;
  options.bucket_nanos = bucket;
  options.csv = true;
  Timeline timeline(options, spans);
  MemoryStream stream(profile);
  ReadText(&stream, "x", &timeline);
  StringSink out;
  timeline.Write(&out);
  std::vector<int64_t> values;
  std::istringstream lines(out.text());
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) values.push_back(std::stoll(line.substr(line.rfind(',') + 1)));
  return values;
}

std::string Profile(const std::string& samples) {
  return testing::Preamble("type cpu nanoseconds\n") +
         "function 1 f \"\" f.c 1\nlocation 1 - 0x1 - 1:1\nstack 1 1\n" + samples;
}

TEST(Timeline, PointSamplesGoToTheBucketOfTheirTime) {
  EXPECT_EQ(Buckets(Profile("sample 1 1 1000 - 5\nsample 1 1 1099 - 7\nsample 1 1 1100 - 1\n"
                            "sample 1 1 1350 - 2\n"),
                    100),
            (std::vector<int64_t>{12, 1, 0, 2}));
}

TEST(Timeline, LongSamplesAreSpreadByTheirOverlap) {
  // 400 over [1050, 1250): a quarter in the first bucket, a half in the second, a quarter in
  // the third.
  EXPECT_EQ(Buckets(Profile("sample 1 1 1000 - 0\nsample 1 1 1050 200 400\n"), 100),
            (std::vector<int64_t>{100, 200, 100}));
}

TEST(Timeline, BucketsAddUpToTheTotalExactly) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 200; ++round) {
    std::string samples;
    int64_t total = 0;
    for (int s = 0; s < 20; ++s) {
      const int64_t time = static_cast<int64_t>(random() % 100000);
      const int64_t duration =
          static_cast<int64_t>(random() % 3) == 0 ? 0 : static_cast<int64_t>(random() % 50000);
      const int64_t value = static_cast<int64_t>(random() % 1000003);
      total += value;
      samples += "sample 1 1 " + std::to_string(time) + " " +
                 (duration == 0 ? std::string("-") : std::to_string(duration)) + " " +
                 std::to_string(value) + "\n";
    }
    int64_t sum = 0;
    for (int64_t v : Buckets(Profile(samples), 1 + static_cast<int64_t>(random() % 7000))) sum += v;
    ASSERT_EQ(sum, total) << samples;
  }
}

TEST(Timeline, RefusesABucketThatMakesTooManyRows) {
  std::map<uint64_t, SourceSpan> spans;
  spans[1].Add(0, 1000000000);
  TimelineOptions options;
  options.bucket_nanos = 1;
  EXPECT_THROW(Timeline(options, spans), UsageError);
  EXPECT_EQ(AutomaticBucket(spans), 50000000);  // 1s in at most 40 buckets: 50ms
}

}  // namespace
}  // namespace timeline_test
}  // namespace proftools
