#include "common/report/reports.h"
#include "common/report/text/tag_totals.h"

#include <gtest/gtest.h>

#include <map>

#include "common/filter/profile_filter.h"
#include "common/report/value_format.h"
#include "tests/test_util.h"

namespace proftools {
namespace reports_test {  // a namespace of its own: the tests build as one unit
namespace {

// main -> a -> b (leaf), main -> b (leaf), and recursion main -> r -> r -> r.
const char* kProfile =
    "proftext 1.0\n"
    "source 1 manual x -\n"
    "type samples count\n"
    "type cpu nanoseconds\n"
    "function 1 main \"\" main.c 1\n"
    "function 2 a \"\" a.c 1\n"
    "function 3 b \"\" b.c 1\n"
    "function 4 r \"\" r.c 1\n"
    "location 1 - 0x1 - 1:10\n"
    "location 2 - 0x2 - 2:20\n"
    "location 3 - 0x3 - 3:30\n"
    "location 4 - 0x4 - 4:40\n"
    "stack 1 3 2 1\n"
    "stack 2 3 1\n"
    "stack 3 4 4 4 1\n"
    "sample 1 1 - - 5 5000000\n"
    "sample 1 2 - - 3 3000000\n"
    "sample 1 3 - - 2 2000000\n"
    "sample 1 1 - - 1 1000000\n";

// The report of kProfile, through the filter of `spec` when it is active (as prof-text does it).
std::string Report(void (*report)(const StackTotals&, const ReportOptions&, ByteSink*),
                   ReportOptions options, const std::string& value = "",
                   const FilterSpec& spec = FilterSpec{}) {
  StackTotals totals;
  MemoryStream stream(kProfile);
  if (spec.active()) {
    ProfileFilter filter(spec, nullptr, &totals, "x");
    ReadText(&stream, "x", &filter);
    totals.SetTotals(filter.samples_before_frames(), filter.values_before_frames());
  } else {
    ReadText(&stream, "x", &totals);
  }
  options.value_index = ResolveValueIndex(totals.header(), value);
  StringSink out;
  report(totals, options, &out);
  return out.text();
}

TEST(TopReport, FlatIsTheLeafAndCumCountsRecursionOnce) {
  ReportOptions options;
  options.raw_values = true;
  EXPECT_EQ(Report(WriteTopReport, options, "samples"),
            "Type: samples/count\n"
            // (N samples) is the total of the type `samples`; equal flat values sort by name,
            // as pprof's FlatNameOrder.
            "Showing nodes accounting for 11, 100.00% of 11 total (11 samples)\n"
            "      flat   flat%    sum%        cum    cum%\n"
            "         9  81.82%  81.82%          9  81.82%  b\n"
            "         2  18.18% 100.00%          2  18.18%  r\n"
            "         0   0.00% 100.00%          6  54.55%  a\n"
            "         0   0.00% 100.00%         11 100.00%  main\n");
}

// Issue 24 item 4: a record may stand for several samples (a pprof sample per stack and label
// set carries its count); every report counts samples one way, so prof-text, prof-svg and
// prof-html agree: the `samples` type's total when there is one, else the records.
TEST(StackTotals, SamplesAreTheSamplesTypeTotalElseTheRecords) {
  StackTotals counted;
  MemoryStream stream(kProfile);
  ReadText(&stream, "x", &counted);
  EXPECT_EQ(counted.total_records(), 4u);
  EXPECT_EQ(counted.total_samples(), 11u);  // 5 + 3 + 2 + 1

  StackTotals records;
  MemoryStream no_count(
      "proftext 1.0\nsource 1 manual x -\ntype cpu nanoseconds\nfunction 1 main \"\" m.c 1\n"
      "location 1 - 0x1 - 1:1\nstack 1 1\nsample 1 1 - - 7\nsample 1 1 - - 9\n");
  ReadText(&no_count, "x", &records);
  EXPECT_EQ(records.total_records(), 2u);
  EXPECT_EQ(records.total_samples(), 2u);
}

// Samples are summed apart from the entries while they come and added to them at the end of the
// profile: the entries then hold every sample (over two ends, as of two inputs, and with entries
// AddEntry made), and asking for them before the end is an error, not sums short of samples.
TEST(StackTotals, EntriesHoldEverySampleOnceTheProfileEnds) {
  ProfileHeader header;
  header.sources.push_back(Source{1, "manual", "x", std::nullopt});
  header.types.push_back({"cpu", "nanoseconds"});
  header.types.push_back({"samples", "count"});
  StackTotals totals(StackTotals::LabelKeying::kExact);
  totals.OnHeader(header);
  totals.OnStack(Stack{1, {}});
  totals.OnStack(Stack{2, {}});
  Sample sample;
  sample.source_id = 1;
  sample.stack_id = 1;
  sample.values = {10, 1};
  sample.labels = {Label::String("tid", "7")};
  totals.OnSample(sample);
  totals.OnSample(sample);
  EXPECT_THROW(totals.entries(), ProfError);
  totals.OnEnd();
  ASSERT_EQ(totals.entries().size(), 1u);
  EXPECT_EQ(totals.entries()[0].samples, 2u);
  EXPECT_EQ(totals.entries()[0].values, (std::vector<int64_t>{20, 2}));
  ASSERT_EQ(totals.label_set(totals.entries()[0]).size(), 1u);
  EXPECT_EQ(totals.label_set(totals.entries()[0])[0].str, "7");
  totals.AddEntry(2, 3, {5, 3}, {});
  sample.stack_id = 2;
  totals.OnSample(sample);  // another label set than AddEntry's: an entry of its own
  sample.stack_id = 1;
  totals.OnSample(sample);
  totals.OnEnd();
  ASSERT_EQ(totals.entries().size(), 3u);
  EXPECT_EQ(totals.entries()[0].values, (std::vector<int64_t>{30, 3}));
  EXPECT_EQ(totals.entries()[1].values, (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(totals.entries()[2].values, (std::vector<int64_t>{10, 1}));
  EXPECT_EQ(totals.entries()[2].samples, 1u);
  EXPECT_TRUE(totals.label_set(totals.entries()[1]).empty());
  EXPECT_EQ(totals.label_set(totals.entries()[2]).size(), 1u);
}

// Keyed by labels, an entry is found through its stack: the first few label sets of a stack in
// a chain, the others in a table. Either way each (stack, label set) is one entry, in order of
// first sight, whatever the order of the samples.
TEST(StackTotals, EachStackAndLabelSetIsOneEntryHoweverManyLabelSetsAStackHas) {
  ProfileHeader header;
  header.sources.push_back(Source{1, "manual", "x", std::nullopt});
  header.types.push_back({"samples", "count"});
  StackTotals totals(StackTotals::LabelKeying::kExact);
  totals.OnHeader(header);
  for (uint64_t stack = 1; stack <= 3; ++stack) totals.OnStack(Stack{stack, {}});
  Sample sample;
  sample.source_id = 1;
  sample.values = {1};
  // Stack 1 with 30 label sets (past the chain), stack 2 with 3, stack 3 with none; each sample
  // of (stack s, set k) counted s + k times, interleaved.
  std::vector<std::pair<uint64_t, int>> order;
  for (int round = 0; round < 40; ++round) {
    for (uint64_t stack = 1; stack <= 3; ++stack) {
      const int sets = stack == 1 ? 30 : stack == 2 ? 3 : 1;
      for (int k = 0; k < sets; ++k) {
        if (round < static_cast<int>(stack) + k) order.emplace_back(stack, (k * 7 + round) % sets);
      }
    }
  }
  for (const auto& [stack, k] : order) {
    sample.stack_id = stack;
    sample.labels = stack == 3 ? std::vector<Label>{}
                               : std::vector<Label>{Label::String("request", std::to_string(k))};
    totals.OnSample(sample);
  }
  totals.OnEnd();
  std::map<std::pair<uint64_t, std::string>, uint64_t> want, got;
  for (const auto& [stack, k] : order) {
    ++want[{stack, stack == 3 ? "" : std::to_string(k)}];
  }
  for (const StackTotals::Entry& entry : totals.entries()) {
    const std::vector<Label>& labels = totals.label_set(entry);
    const auto key = std::make_pair(entry.stack_id, labels.empty() ? "" : labels[0].str);
    EXPECT_EQ(got.count(key), 0u) << "twice: stack " << key.first << " " << key.second;
    got[key] = static_cast<uint64_t>(entry.values[0]);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(totals.entries().size(), 34u);
}

TEST(TopReport, DefaultValueIsTheLastTypeAndUnitsScale) {
  const std::string top = Report(WriteTopReport, ReportOptions{});
  EXPECT_NE(top.find("Type: cpu/nanoseconds\n"), std::string::npos);
  EXPECT_NE(top.find("       9ms  81.82%  81.82%        9ms  81.82%  b\n"), std::string::npos);
}

TEST(TopReport, FocusKeepsPercentagesOfTheWholeProfile) {
  ReportOptions options;
  options.raw_values = true;
  options.filter_description = "--focus '^a$'";
  FilterSpec spec;
  spec.frames.focus = CompileFrameRegex("--focus", {"^a$"});
  const std::string top = Report(WriteTopReport, options, "samples", spec);
  EXPECT_NE(top.find("Active filters:\n   --focus '^a$'\n"), std::string::npos);
  EXPECT_NE(top.find("Showing nodes accounting for 6, 54.55% of 11 total"), std::string::npos);
  EXPECT_EQ(top.find("  r\n"), std::string::npos);
}

TEST(TracesReport, LargestFirstWithTheirTotals) {
  ReportOptions options;
  options.raw_values = true;
  const std::string traces = Report(WriteTracesReport, options, "samples");
  EXPECT_EQ(traces.substr(traces.find("-----")),
            "-----------+-------------------------------------------------------\n"
            "         6   b\n"
            "             a\n"
            "             main\n"
            "-----------+-------------------------------------------------------\n"
            "         3   b\n"
            "             main\n"
            "-----------+-------------------------------------------------------\n"
            "         2   r\n"
            "             r\n"
            "             r\n"
            "             main\n"
            "-----------+-------------------------------------------------------\n");
}

TEST(TreeReport, PathsFromTheRootWithCumAndFlat) {
  ReportOptions options;
  options.raw_values = true;
  const std::string tree = Report(WriteTreeReport, options, "samples");
  EXPECT_EQ(tree.substr(tree.find("       cum")),
            "       cum    cum%       flat   flat%  name\n"
            "        11 100.00%          0   0.00%  main\n"
            "         6  54.55%          0   0.00%    a\n"
            "         6  54.55%          6  54.55%      b\n"
            "         3  27.27%          3  27.27%    b\n"
            "         2  18.18%          0   0.00%    r\n"
            "         2  18.18%          0   0.00%      r\n"
            "         2  18.18%          2  18.18%        r\n");
}

// One sample of a stack a million frames deep, f and g alternating (g at the root, f the leaf).
StackTotals MillionFramesDeep() {
  std::string text =
      "proftext 1.0\nsource 1 manual x -\ntype samples count\n"
      "function 1 f \"\" - 0\nfunction 2 g \"\" - 0\n"
      "location 1 - 0x1 - 1:0\nlocation 2 - 0x2 - 2:0\nstack 1";
  for (int i = 0; i < 1000000; ++i) text += i % 2 ? " 2" : " 1";
  text += "\nsample 1 1 - - 3\n";
  StackTotals totals;
  MemoryStream stream(text);
  ReadText(&stream, "x", &totals);
  return totals;
}

// A stack a million frames deep (one Rprof sample line can be) is a chain of a million nodes:
// built, trimmed and written without recursion (a tree of nested nodes destroyed recursively
// overflowed the stack at 1.5 million frames). The first 80 nodes by |cum|: the chain's top.
TEST(TreeReport, AStackAMillionFramesDeepIsAChain) {
  const StackTotals totals = MillionFramesDeep();
  ReportOptions options;
  options.raw_values = true;
  options.node_count = 80;  // prof-text's default
  StringSink out;
  WriteTreeReport(totals, options, &out);
  const std::string& tree = out.text();
  EXPECT_NE(tree.find("Showing top 80 nodes out of 1000000\n"), std::string::npos)
      << tree.substr(0, 400);
  EXPECT_NE(tree.find("\n         3 100.00%          0   0.00%  g\n"), std::string::npos);
  EXPECT_NE(tree.find("\n         3 100.00%          0   0.00%    f\n"), std::string::npos);
  size_t lines = 0;
  for (char c : tree.substr(tree.find("       cum"))) lines += c == '\n';
  EXPECT_EQ(lines, 81u);  // the column line and 80 nodes
}

// Past kIndentedLevels levels the indentation stops growing and a line says its depth: with
// every node shown, a stack a million frames deep writes about 200 bytes a frame, not a
// terabyte of spaces.
TEST(TreeReport, DeepNodesSayTheirDepthInsteadOfIndentingFurther) {
  const StackTotals totals = MillionFramesDeep();
  ReportOptions options;
  options.raw_values = true;
  options.node_count = 0;  // every node
  options.min_percent = 0;
  StringSink out;
  WriteTreeReport(totals, options, &out);
  const std::string& tree = out.text();
  EXPECT_LT(tree.size(), size_t{200} * 1000000);
  const std::string prefix = "\n         3 100.00%          0   0.00%  ";
  EXPECT_NE(tree.find(prefix + std::string(126, ' ') + "f\n"), std::string::npos);  // depth 63
  EXPECT_NE(tree.find(prefix + std::string(128, ' ') + "g\n"), std::string::npos);  // depth 64
  EXPECT_NE(tree.find(prefix + std::string(128, ' ') + "[65] f\n"), std::string::npos);
  EXPECT_NE(tree.find("3 100.00%  " + std::string(128, ' ') + "[999999] f\n"), std::string::npos);
}

// A location's frames (an inlined call: two lines) get their numbers once, kept innermost first,
// made in the order asked for: a report that numbers names as a walk from the root meets them
// asks for the outermost first.
TEST(LocationNumbers, OneLookupALocationNumbersMadeInTheOrderAsked) {
  StackTotals totals;
  MemoryStream stream(
      "proftext 1.0\nsource 1 manual x -\ntype samples count\n"
      "function 1 inner \"\" - 0\nfunction 2 outer \"\" - 0\n"
      "location 1 - 0x1 - 1:5 2:9\nstack 1 1\nsample 1 1 - - 1\n");
  ReadText(&stream, "x", &totals);
  for (const auto order :
       {LocationNumbers::Order::kInnermostFirst, LocationNumbers::Order::kOutermostFirst}) {
    FrameExpander frames(totals.defs(), Granularity::kFunctions);
    LocationNumbers numbers(order);
    std::vector<std::string> made;
    auto make = [&](const Frame& frame) {
      made.push_back(frame.name);
      return static_cast<uint32_t>(frame.name == "inner" ? 10 : 20);
    };
    const auto [first, last] = numbers.Of(&frames, 1, make);
    ASSERT_EQ(last - first, 2u);
    EXPECT_EQ(numbers.number(first), 10u);  // innermost first
    EXPECT_EQ(numbers.number(first + 1), 20u);
    EXPECT_EQ(made, (order == LocationNumbers::Order::kInnermostFirst
                         ? std::vector<std::string>{"inner", "outer"}
                         : std::vector<std::string>{"outer", "inner"}));
    numbers.Of(&frames, 1, make);  // known: not made again
    EXPECT_EQ(made.size(), 2u);
  }
}

// LocationNames gives LocationFrames' names and inlined flags (kind and source left alone),
// for every granularity and a location that is not defined.
TEST(FrameExpander, LocationNamesAreTheFramesNames) {
  StackTotals totals;
  MemoryStream stream(
      "proftext 1.0\nsource 1 manual x -\ntype samples count\n"
      "mapping 1 0x0 0x1000 0x0 /usr/lib/libc.so.6 - -\n"
      "function 1 inner \"\" a.c 3\nfunction 2 outer \"\" b.c 7\n"
      "location 1 - 0x1 - 1:5 2:9\nlocation 2 1 0x2f -\nlocation 3 - 0x3 - 2:0\n"
      "stack 1 1 2 3\nsample 1 1 - - 1\n");
  ReadText(&stream, "x", &totals);
  for (const Granularity granularity :
       {Granularity::kFunctions, Granularity::kFileFunctions, Granularity::kFiles,
        Granularity::kLines, Granularity::kFileLines, Granularity::kAddresses}) {
    FrameExpander frames(totals.defs(), granularity);
    FrameExpander names(totals.defs(), granularity);
    for (const uint64_t location : {1, 2, 3, 4}) {
      const std::vector<Frame>& full = frames.LocationFrames(location);
      const std::vector<Frame>& named = names.LocationNames(location);
      ASSERT_EQ(full.size(), named.size()) << location;
      for (size_t i = 0; i < full.size(); ++i) {
        EXPECT_EQ(full[i].name, named[i].name) << location;
        EXPECT_EQ(full[i].inlined, named[i].inlined) << location;
        EXPECT_EQ(named[i].source, "") << location;
      }
    }
  }
}

TEST(FoldedReport, RootFirstSortedAndSummed) {
  FilterSpec spec;
  spec.frames.ignore = CompileFrameRegex("--ignore", {"^r$"});
  EXPECT_EQ(Report(WriteFoldedReport, ReportOptions{}, "samples", spec), "main;a;b 6\nmain;b 3\n");
}

TEST(FoldedReport, GranularityLines) {
  ReportOptions options;
  options.granularity = Granularity::kLines;
  EXPECT_EQ(Report(WriteFoldedReport, options, "samples"),
            "main main.c:10;a a.c:20;b b.c:30 6\nmain main.c:10;b b.c:30 3\n"
            "main main.c:10;r r.c:40;r r.c:40;r r.c:40 2\n");
}

TEST(FoldedEscape, NamesCannotBreakTheFormat) {
  EXPECT_EQ(EscapeFoldedFrame("a;b"), "a\\x3bb");
  EXPECT_EQ(EscapeFoldedFrame("x\\y"), "x\\\\y");
  EXPECT_EQ(EscapeFoldedFrame("l1\nl2\r\t"), "l1\\nl2\\r\\t");
  EXPECT_EQ(EscapeFoldedFrame("caf\xc3\xa9 <T> (x)"), "caf\xc3\xa9 <T> (x)");
  EXPECT_EQ(EscapeFoldedFrame("\xff"), "\\xff");
  EXPECT_EQ(DisplayFrameName("a;b\\c\n"), "a;b\\c\\n");
}

TEST(ValueFormat, ScalesTimeAndBytesAndKeepsCounts) {
  EXPECT_EQ(FormatValue(0, "nanoseconds", false), "0");
  EXPECT_EQ(FormatValue(999, "nanoseconds", false), "999ns");
  EXPECT_EQ(FormatValue(1500000, "nanoseconds", false), "1.50ms");
  EXPECT_EQ(FormatValue(2000000000, "nanoseconds", false), "2s");
  EXPECT_EQ(FormatValue(1500, "microseconds", false), "1.50ms");
  EXPECT_EQ(FormatValue(-3000000, "nanoseconds", false), "-3ms");
  EXPECT_EQ(FormatValue(12 << 20, "bytes", false), "12MiB");
  EXPECT_EQ(FormatValue(1536, "bytes", false), "1.50KiB");
  EXPECT_EQ(FormatValue(12345, "count", false), "12345");
  EXPECT_EQ(FormatValue(1500000, "nanoseconds", true), "1500000");
  EXPECT_EQ(FormatPercent(1, 3), "33.33%");
  EXPECT_EQ(FormatPercent(1, 0), "-");
}

TEST(ResolveValueIndex, NamesTheAvailableTypes) {
  ProfileHeader header;
  header.types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  EXPECT_EQ(ResolveValueIndex(header, ""), 1);
  EXPECT_EQ(ResolveValueIndex(header, "samples"), 0);
  header.default_type = "samples";
  EXPECT_EQ(ResolveValueIndex(header, ""), 0);
  try {
    ResolveValueIndex(header, "bytes");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--value 'bytes': the profile has no such type (it has: samples, cpu; or give an "
                 "index from 0 to 1)");
  }
  // An index, as pprof's -sample_index; a type named like a number wins over the index.
  EXPECT_EQ(ResolveValueIndex(header, "1"), 1);
  EXPECT_THROW(ResolveValueIndex(header, "2"), UsageError);
  header.types.push_back({"0", "count"});
  EXPECT_EQ(ResolveValueIndex(header, "0"), 2);
}

}  // namespace
}  // namespace reports_test
}  // namespace proftools

namespace proftools {
namespace reports_test {  // a namespace of its own: the tests build as one unit
namespace {

// --tags: a sample counts once per label it has (twice for a key given twice), rows by
// magnitude then name, percentages of the key's total; as pprof -tags.
TEST(TagsReport, SumsPerLabelValueLargestMagnitudeFirst) {
  const std::string text = testing::Preamble("type samples count\n") +
                           "function 1 f \"\" \"\" 0\nlocation 1 - 0x1 - 1:0\nstack 1 1\n"
                           "sample 1 1 - - 3 k=a k=b n=5:bytes\n"
                           "sample 1 1 - - -7 k=c\n"
                           "sample 1 1 - - 3 k=b\n";
  MemoryStream stream(text);
  TagTotals tags("");
  ReadText(&stream, "test", &tags);
  StringSink out;
  WriteTagsReport(tags, /*raw_values=*/true, /*min_percent=*/0, &out);
  EXPECT_EQ(out.text(),
            "Type: samples/count\n"
            "\n"
            "k: Total 2\n"
            "  -7 -350.00%  c\n"
            "   6  300.00%  b\n"
            "   3  150.00%  a\n"
            "\n"
            "n: Total 3\n"
            "  3  100.00%  5 bytes\n");
}

// FormatFixed is printf's "%.*f" byte for byte: values of every shape a report formats, ties
// (0.125, 2.5) and values just off them, which the fast path leaves to printf.
TEST(ValueFormat, FixedIsPrintfs) {
  std::vector<double> values = {0,    0.125,  2.5,  0.5,         1.005,     99.995,    1e11,
                                1e13, -0.001, -2.5, 1199.999999, 0.0049999, 12345.6789};
  uint64_t state = 1;
  for (int i = 0; i < 200000; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    values.push_back(static_cast<double>(state >> 20) / static_cast<double>(1 + (state & 0xfffff)));
  }
  for (double value : values) {
    for (int decimals = 0; decimals <= 5; ++decimals) {
      char expected[64];
      std::snprintf(expected, sizeof expected, "%.*f", decimals, value);
      ASSERT_EQ(FormatFixed(value, decimals), expected) << value << " " << decimals;
    }
  }
}

}  // namespace
}  // namespace reports_test
}  // namespace proftools
