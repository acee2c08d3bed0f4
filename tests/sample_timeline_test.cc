// prof-html's timeline: every timed sample's value lands in the bins, long samples cut across
// bins exactly as prof-filter --time cuts them, so that the bins of any range add up to the
// window's totals.
#include "common/report/html/sample_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "common/filter/time_window.h"
#include "common/text/text_reader.h"
#include "tests/test_util.h"

namespace proftools {
namespace sample_timeline_test {  // a namespace of its own: the tests build as one unit
namespace {

// Two threads; a 1000 ns sample of 7 spanning bins 1 to 5 of 250 ns; an untimed sample.
const char* kProfile =
    "proftext 1.0\n"
    "source 1 manual x -\n"
    "type cpu nanoseconds\n"
    "function 1 main \"\" - 0\n"
    "function 2 f \"\" - 0\n"
    "location 1 - 0x1 - 1:1\n"
    "location 2 - 0x2 - 2:1\n"
    "stack 1 1\n"
    "stack 2 2 1\n"
    "sample 1 1 1000 - 5 tid=1\n"
    "sample 1 2 1300 1000 7 tid=2\n"
    "sample 1 1 2999 - 11 tid=1\n"
    "sample 1 2 - - 100\n";

SampleTimeline Read(int64_t origin, int64_t width, uint32_t bins) {
  SampleTimeline timeline(origin, width, bins);
  MemoryStream stream(kProfile);
  ReadText(&stream, "x", &timeline);
  return timeline;
}

int64_t SumOfBins(const SampleTimeline& timeline, uint32_t from, uint32_t to) {
  int64_t sum = 0;
  timeline.ForEachEntry([&](const SampleTimeline::Entry& entry) {
    if (entry.bin >= from && entry.bin < to) sum += entry.values[0];
  });
  return sum;
}

TEST(SampleTimeline, RowsPerThreadAndEveryTimedValueBinned) {
  const SampleTimeline timeline = Read(1000, 250, 8);
  EXPECT_EQ(timeline.rows(), (std::vector<std::string>{"x 1", "x 2"}));
  EXPECT_EQ(timeline.timed_samples(), 3u);
  EXPECT_EQ(SumOfBins(timeline, 0, 8), 5 + 7 + 11);         // the untimed sample is not on it
  EXPECT_EQ(timeline.total_values()[0], 5 + 7 + 11 + 100);  // but counts in the totals
  EXPECT_EQ(SumOfBins(timeline, 7, 8), 11);                 // 2999 is in the last bin, [2750, 3000)
}

// Issue 24 item 4: "timed samples" counts samples as every report does (the `samples` type's
// values when there is one), not records.
TEST(SampleTimeline, TimedSamplesCountTheSamplesType) {
  SampleTimeline timeline(0, 100, 4);
  MemoryStream stream(
      "proftext 1.0\nsource 1 manual x -\ntype samples count\ntype cpu nanoseconds\n"
      "function 1 main \"\" - 0\nlocation 1 - 0x1 - 1:1\nstack 1 1\n"
      "sample 1 1 10 - 3 30\nsample 1 1 20 - 4 40\nsample 1 1 - - 5 50\n");
  ReadText(&stream, "x", &timeline);
  EXPECT_EQ(timeline.timed_samples(), 7u);
  EXPECT_EQ(timeline.total_samples(), 12u);
  EXPECT_EQ(timeline.total_records(), 3u);
}

// Any range of bins holds what prof-filter's CutToWindow gives for the same edges.
TEST(SampleTimeline, RangesOfBinsAreTimeWindows) {
  const SampleTimeline timeline = Read(1000, 250, 8);
  for (uint32_t from = 0; from < 8; ++from) {
    for (uint32_t to = from + 1; to <= 8; ++to) {
      ResolvedWindow window;
      window.from = from == 0 ? INT64_MIN : 1000 + from * 250;
      window.to = to == 8 ? INT64_MAX : 1000 + to * 250;
      int64_t expected = 0;
      for (auto [time, duration, value] :
           {std::tuple<int64_t, int64_t, int64_t>{1000, 0, 5}, {1300, 1000, 7}, {2999, 0, 11}}) {
        Sample sample;
        sample.time_nanos = time;
        if (duration > 0) sample.duration_nanos = duration;
        sample.values = {value};
        if (CutToWindow(window, &sample)) expected += sample.values[0];
      }
      EXPECT_EQ(SumOfBins(timeline, from, to), expected) << from << ".." << to;
    }
  }
}

// Entries are found again only in their row's current bin, and merged by ForEachEntry (and
// when their number doubles): samples in any order give one entry per (row, bin, stack), with
// the sums of its samples. 200,000 samples over 2 rows, 50 bins and 300 stacks: out of time
// order, so that the entries are compacted on the way; or in time order (rows taking turns,
// stacks in any order within a bin), where no key comes twice.
void CheckEntries(bool in_time_order) {
  std::string text =
      "proftext 1.0\nsource 1 manual x -\ntype cpu nanoseconds\n"
      "function 1 main \"\" - 0\nlocation 1 - 0x1 - 1:1\n";
  for (int stack = 1; stack <= 300; ++stack) {
    text += "stack " + std::to_string(stack) + " 1\n";
  }
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int64_t> expected;
  uint64_t state = 12345;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  for (int i = 0; i < 200000; ++i) {
    const uint32_t row = static_cast<uint32_t>(next(2));
    const uint32_t bin =
        in_time_order ? static_cast<uint32_t>(i / 4000) : static_cast<uint32_t>(next(50));
    const uint64_t stack = 1 + next(300);
    const int64_t value = static_cast<int64_t>(1 + next(9));
    text += "sample 1 " + std::to_string(stack) + " " + std::to_string(bin * 100 + 7) + " - " +
            std::to_string(value) + " tid=" + std::to_string(row + 1) + "\n";
    expected[{row, bin, stack}] += value;
  }
  SampleTimeline timeline(0, 100, 50);
  MemoryStream stream(text);
  ReadText(&stream, "x", &timeline);
  // Rows are numbered in order of first sample: expected's by thread, renumbered so.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int64_t> by_row;
  for (const auto& [key, value] : expected) {
    const auto& [thread, bin, stack] = key;
    const std::string name = "x " + std::to_string(thread + 1);
    const auto row = std::find(timeline.rows().begin(), timeline.rows().end(), name);
    ASSERT_NE(row, timeline.rows().end()) << name;
    by_row[{static_cast<uint32_t>(row - timeline.rows().begin()), bin, stack}] = value;
  }
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int64_t> entries;
  size_t count = 0;
  timeline.ForEachEntry([&](const SampleTimeline::Entry& entry) {
    entries[{entry.row, entry.bin, entry.stack_id}] = entry.values[0];
    ++count;
  });
  EXPECT_EQ(count, by_row.size());  // each key once
  EXPECT_EQ(entries, by_row);
}

TEST(SampleTimeline, SamplesInAnyOrderGiveOneEntryPerRowBinAndStack) {
  CheckEntries(false);
}

TEST(SampleTimeline, SamplesInTimeOrderGiveOneEntryPerRowBinAndStack) {
  CheckEntries(true);
}

}  // namespace
}  // namespace sample_timeline_test
}  // namespace proftools
