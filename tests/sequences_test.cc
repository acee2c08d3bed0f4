// The sequence views (--sequences, --peek, --peek-seq) and --traces with marked cycles: worked
// cases, and properties over random profiles that tie them to --top.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>

#include "common/filter/collapse_recursion.h"
#include "common/report/reports.h"
#include "common/report/sequence/sequence_counts.h"
#include "common/report/sequence/sequence_peek.h"
#include "common/text/text_writer.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace sequences_test {  // a namespace of its own: the tests build as one unit
namespace {

// Root first, space-separated function names per stack, one sample of `value` each.
std::string ProfileOf(const std::vector<std::pair<std::string, int64_t>>& stacks) {
  return testing::StacksProfile(stacks);
}

struct Loaded {
  explicit Loaded(const std::string& text) {
    MemoryStream stream(text);
    ReadText(&stream, "x", &totals);
  }
  StackTotals totals;
};

std::string ReportOf(void (*report)(const StackTotals&, const ReportOptions&, ByteSink*),
                     const std::string& text, ReportOptions options) {
  Loaded loaded(text);
  StringSink out;
  report(loaded.totals, options, &out);
  return out.text();
}

TEST(CollapseRepeats, NotesEachCycleOnce) {
  // a b c b c b c d e e e f -> a (b c)* d e* f
  std::vector<CollapsedCycle> cycles;
  const std::vector<size_t> kept = CollapseRepeats({1, 2, 3, 2, 3, 2, 3, 4, 5, 5, 5, 6}, &cycles);
  EXPECT_EQ(kept, (std::vector<size_t>{0, 1, 2, 7, 8, 11}));
  ASSERT_EQ(cycles.size(), 2u);
  EXPECT_EQ(cycles[0].first, 1u);
  EXPECT_EQ(cycles[0].last, 2u);
  EXPECT_EQ(cycles[1].first, 4u);
  EXPECT_EQ(cycles[1].last, 4u);
  // Nested: a b b a b b -> (a b*)*
  CollapseRepeats({1, 2, 2, 1, 2, 2}, &cycles);
  ASSERT_EQ(cycles.size(), 2u);
  EXPECT_EQ(cycles[0].first, 0u);
  EXPECT_EQ(cycles[0].last, 1u);
  EXPECT_EQ(cycles[1].first, 1u);
  EXPECT_EQ(cycles[1].last, 1u);
}

TEST(TracesReport, MarksCollapsedCyclesAndMergesTraces) {
  ReportOptions options;
  options.raw_values = true;
  options.mark_cycles = true;
  const std::string text = ReportOf(
      WriteTracesReport,
      ProfileOf({{"a b c b c b c d e e e f", 3}, {"a b c b c d e e f", 2}, {"a b c d e f", 4}}),
      options);
  // The first two become the same trace, a (b c)* d e* f; the third has no cycle.
  EXPECT_NE(text.find("         5   f\n             e*\n             d\n             (c\n"
                      "              b)*\n             a\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("         4   f\n             e\n             d\n             c\n"),
            std::string::npos)
      << text;
}

TEST(SequencesReport, ValuePerPrefixAndLongestFormOnly) {
  ReportOptions options;
  options.raw_values = true;
  options.min_percent = 0;
  const std::string text =
      ReportOf(WriteSequencesReport, ProfileOf({{"a b c", 6}, {"a b", 3}, {"a d", 1}}), options);
  // a;b;c (6) shows a 10, a;b 9, a;b;c 6; b;c and c (6 too) are inside it, so left out.
  // The last line ends with the sequence as --peek-seq takes it (issue 24 item 8).
  EXPECT_NE(text.find("        10  100.00%   a\n         9   90.00%   b\n"
                      "         6   60.00%   c   a;b;c\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("-\n         6   60.00%   b\n"), std::string::npos) << text;
  EXPECT_NE(text.find("4 sequences are left out"), std::string::npos) << text;
}

TEST(SequencesReport, SelfEndsWithSelfLine) {
  ReportOptions options;
  options.raw_values = true;
  options.sequences.by_self = true;
  options.sequences.max_length = 2;
  const std::string text =
      ReportOf(WriteSequencesReport, ProfileOf({{"a b c", 6}, {"a b", 3}, {"x b", 1}}), options);
  EXPECT_NE(
      text.find("        10  100.00%   b\n         6   60.00%   c   b;c\n         6   60.00%   "
                "[self]\n"),
      std::string::npos)
      << text;
  // b ends 4 samples: a;b ends 3 and x;b 1, so b is listed on its own.
  EXPECT_NE(text.find("        10  100.00%   b\n         4   40.00%   [self]\n"), std::string::npos)
      << text;
}

TEST(PeekReport, CallersCalleesRootAndSelf) {
  ReportOptions options;
  options.raw_values = true;
  options.sequences.peek_regex = "^b$";
  const std::string text =
      ReportOf(WritePeekReport, ProfileOf({{"a b c", 6}, {"a b", 3}, {"b", 1}}), options);
  EXPECT_NE(text.find("b\n        10  100.00%   cum\n         4   40.00%   self\n"
                      "  callers (% of cum):\n         9   90.00%   a        a;b\n"
                      "         1   10.00%   [root]\n  callees (% of cum):\n"
                      "         6   60.00%   c        b;c\n         4   40.00%   [self]\n"),
            std::string::npos)
      << text;
}

TEST(PeekReport, SequenceAndErrors) {
  ReportOptions options;
  options.raw_values = true;
  options.sequences.peek_sequences = {"a;b"};
  const std::string text =
      ReportOf(WritePeekReport, ProfileOf({{"x a b c", 6}, {"a b", 3}, {"b", 1}}), options);
  EXPECT_NE(text.find("a;b\n         9   90.00%   cum\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x;a;b"), std::string::npos) << text;
  EXPECT_NE(text.find("a;b;c"), std::string::npos) << text;
  // Several: a block each, in the order given; one that no sample holds as a run has none.
  options.sequences.peek_sequences = {"b", "b;a", "a;b"};
  const std::string several =
      ReportOf(WritePeekReport, ProfileOf({{"x a b c", 6}, {"a b", 3}, {"b", 1}}), options);
  EXPECT_NE(several.find("Peek of 3 sequences: 2 blocks"), std::string::npos) << several;
  EXPECT_LT(several.find("\nb\n        10  100.00%   cum\n"),
            several.find("\na;b\n         9   90.00%   cum\n"))
      << several;
  options.sequences.peek_sequences = {"a;nothing"};
  EXPECT_THROW(ReportOf(WritePeekReport, ProfileOf({{"a b", 1}}), options), UsageError);
  options.sequences.peek_sequences.clear();
  options.sequences.peek_regex = "(";
  EXPECT_THROW(ReportOf(WritePeekReport, ProfileOf({{"a b", 1}}), options), UsageError);
}

// Random profiles with values small enough that no sum overflows.
std::string RandomProfileText(testing::RandomProfileGenerator* generator, uint32_t seed) {
  Profile profile = generator->Next();
  std::mt19937 random(seed);
  for (Sample& sample : profile.samples) {
    for (int64_t& value : sample.values) value = static_cast<int64_t>(random() % 2000) - 200;
  }
  StringSink out;
  CanonicalWriter writer(&out);
  EmitProfile(profile, writer);
  return out.text();
}

// The cumulative value of each frame in --top's report (raw values), by displayed name; frames
// whose cum is 0 left out.
std::map<std::string, int64_t> TopCum(const StackTotals& totals, Granularity granularity) {
  ReportOptions options;
  options.raw_values = true;
  options.granularity = granularity;
  StringSink out;
  WriteTopReport(totals, options, &out);
  std::map<std::string, int64_t> cum;
  std::istringstream lines(out.text());
  std::string line;
  bool rows = false;
  while (std::getline(lines, line)) {
    if (!rows) {
      rows = line.find("flat%") != std::string::npos;
      continue;
    }
    // flat flat% sum% cum cum%, then two spaces and the name.
    size_t at = 0;
    std::string fields[5];
    for (std::string& field : fields) {
      at = line.find_first_not_of(' ', at);
      const size_t end = line.find(' ', at);
      field = line.substr(at, end - at);
      at = end;
    }
    if (std::stoll(fields[3]) != 0) cum[line.substr(at + 2)] = std::stoll(fields[3]);
  }
  return cum;
}

TEST(SequenceProperties, OneFrameSequenceIsTopCumAndEdgesAddUp) {
  testing::RandomProfileGenerator generator(20261124);
  int compared = 0;  // rounds with frames to compare: the property is not vacuous
  for (int round = 0; round < 300; ++round) {
    const std::string text = RandomProfileText(&generator, round);
    Loaded loaded(text);
    for (Granularity granularity : {Granularity::kFunctions, Granularity::kLines}) {
      const SequenceStacks stacks(loaded.totals, 0, granularity);
      SequenceLimits limits;
      limits.min_value = INT64_MIN;  // count everything
      const SequenceCounts counts(stacks, limits);
      std::map<std::string, int64_t> one_frame;
      for (const CountedSequence& sequence : counts.sequences()) {
        if (sequence.length == 1 && sequence.cum != 0) {
          one_frame[DisplayFrameName(stacks.Name(sequence.last))] = sequence.cum;
        }
      }
      EXPECT_EQ(one_frame, TopCum(loaded.totals, granularity)) << text;
      compared += !one_frame.empty();

      const std::vector<Peek> peeks =
          PeekFrames(stacks, std::vector<bool>(stacks.frame_count(), true));
      for (const Peek& peek : peeks) {
        int64_t callers = 0;
        int64_t callees = 0;
        for (const PeekEdge& edge : peek.callers) callers += edge.value;
        for (const PeekEdge& edge : peek.callees) callees += edge.value;
        EXPECT_EQ(callers, peek.cum) << stacks.Name(peek.frames[0]) << "\n" << text;
        EXPECT_EQ(callees, peek.cum) << stacks.Name(peek.frames[0]) << "\n" << text;
        // A one-frame sequence's peek is the peek of the sequence.
        const Peek again = PeekSequence(stacks, peek.frames);
        EXPECT_EQ(again.cum, peek.cum);
        EXPECT_EQ(again.self, peek.self);
      }
      // Each counted sequence of two frames or more: its peek has its cum and self values.
      for (uint32_t id = 0; id < counts.sequences().size(); ++id) {
        const CountedSequence& sequence = counts.sequences()[id];
        if (sequence.length < 2) continue;
        const Peek peek = PeekSequence(stacks, counts.Frames(id));
        EXPECT_EQ(peek.cum, sequence.cum) << text;
        EXPECT_EQ(peek.self, sequence.self) << text;
      }
    }
  }
  EXPECT_GT(compared, 300);
}

}  // namespace
}  // namespace sequences_test
}  // namespace proftools
