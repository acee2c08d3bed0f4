// prof-merge's rules (formats/prof-text.md §5.1), one at a time, on small profiles.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/units.h"
#include "common/merge/merge_spool.h"
#include "common/merge/read_ahead.h"
#include "common/model/stack_table.h"
#include "tests/merge_test_util.h"
#include "tests/test_util.h"

namespace proftools {
namespace merge_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::MergeTexts;

// A profile with one function `fn` sampled once with `values`, under `types`.
std::string OneSample(const std::string& types, const std::string& values,
                      const std::string& source = "source 1 perf host-a -\n",
                      const std::string& fn = "main", const std::string& extra = "") {
  return "proftext 1.0\n" + extra + source + types + "function 7 " + fn +
         " \"\" \"\" 0\nlocation 3 - 0x10 - 7:1\nstack 9 3\nsample 1 9 5 - " + values + "\n";
}

TEST(Merge, UnionOfTypesFillsMissingValuesWithZero) {
  const Profile p = testing::Parse(MergeTexts(
      {{"r", OneSample("type samples count\ntype alloc bytes\n", "1 4096", "source 1 rprof r -\n")},
       {"p", OneSample("type samples count\ntype cpu nanoseconds\n", "2 10000000")}}));
  ASSERT_EQ(p.header.types.size(), 3u);
  // The inputs list different types: sorted by name.
  EXPECT_EQ(p.header.types[0].type, "alloc");
  EXPECT_EQ(p.header.types[1].type, "cpu");
  EXPECT_EQ(p.header.types[2].type, "samples");
  ASSERT_EQ(p.samples.size(), 2u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{4096, 0, 1}));
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{0, 10000000, 2}));
  // The defaults were alloc and cpu: the smaller is kept, written because it is not last.
  EXPECT_EQ(p.header.default_type, "alloc");
}

TEST(Merge, SameTypesKeepTheirOrder) {
  const std::string a = OneSample("type samples count\ntype cpu nanoseconds\n", "1 10");
  const Profile p = testing::Parse(MergeTexts({{"a", a}, {"b", a}}));
  ASSERT_EQ(p.header.types.size(), 2u);
  EXPECT_EQ(p.header.types[0].type, "samples");
  EXPECT_EQ(p.header.default_type, "");  // implicit (the last type) stays implicit
}

TEST(Merge, IdenticalDefinitionsAndSourcesAreStoredOnce) {
  const std::string a = OneSample("type samples count\n", "1");
  const Profile p = testing::Parse(MergeTexts({{"a", a}, {"b", a}}));
  EXPECT_EQ(p.defs.functions.size(), 1u);
  EXPECT_EQ(p.defs.locations.size(), 1u);
  EXPECT_EQ(p.defs.stacks.size(), 1u);
  EXPECT_EQ(p.header.sources.size(), 1u);
  EXPECT_EQ(p.samples.size(), 2u);
  // Different sources are both kept, each sample pointing at its own.
  const Profile q = testing::Parse(MergeTexts(
      {{"a", a}, {"b", OneSample("type samples count\n", "1", "source 1 perf host-b -\n")}}));
  ASSERT_EQ(q.header.sources.size(), 2u);
  EXPECT_EQ(q.samples[0].source_id, 1u);
  EXPECT_EQ(q.samples[1].source_id, 2u);
  EXPECT_EQ(q.defs.functions.size(), 1u);
}

TEST(Merge, AggregateWithDroppedSourcesDoublesAProfileMergedWithItself) {
  const std::string a = OneSample("type samples count\ntype cpu nanoseconds\n", "3 30");
  const Profile p = testing::Parse(MergeTexts({{"a", a}, {"a", a}}, {true, true, false, {}}));
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{6, 60}));
  EXPECT_FALSE(p.samples[0].time_nanos);
  ASSERT_EQ(p.header.sources.size(), 1u);
  EXPECT_EQ(p.header.sources[0].type, "prof-merge");
}

TEST(Merge, AggregateKeepsDifferentLabelsAndSourcesApart) {
  const std::string text =
      testing::Preamble() +
      "source 2 perf b -\nfunction 1 f \"\" \"\" 0\nlocation 1 - 0x1 - 1:0\nstack 1 1\n"
      "sample 1 1 - - 1 t=1\nsample 1 1 - - 1 t=2\nsample 2 1 - - 1 t=1\nsample 1 1 - - 1 t=1\n";
  const Profile p = testing::Parse(MergeTexts({{"a", text}}, {true, false, false, {}}));
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(p.samples[0].values[0], 2);  // first key first
  EXPECT_EQ(p.samples[1].labels[0].num, 2);
  EXPECT_EQ(p.samples[2].source_id, 2u);
}

TEST(Merge, KnownUnitsAreConvertedToTheFinerOne) {
  const Profile p = testing::Parse(
      MergeTexts({{"ms", OneSample("type cpu milliseconds\ntype alloc megabytes\n", "3 2")},
                  {"ns", OneSample("type cpu nanoseconds\ntype alloc kilobytes\n", "7 1")}}));
  EXPECT_EQ(p.header.types[0].unit, "nanoseconds");  // same names, same order: kept
  EXPECT_EQ(p.header.types[1].unit, "kilobytes");
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{3000000, 2048}));
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{7, 1}));
}

TEST(Merge, UnconvertibleUnitsAreRefusedNamingBothInputs) {
  try {
    MergeTexts({{"a.prof", OneSample("type cpu nanoseconds\n", "1")},
                {"b.prof", OneSample("type cpu widgets\n", "1")}});
    FAIL() << "merged";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(),
              "b.prof: value type 'cpu' is in unit 'widgets', but a.prof has it in "
              "'nanoseconds'; these units cannot be converted (rename one of the types, or merge "
              "them separately)");
  }
}

TEST(Merge, ConversionOverflowIsAnError) {
  EXPECT_THROW(MergeTexts({{"a", OneSample("type cpu seconds\n", "9223372036854775807")},
                           {"b", OneSample("type cpu nanoseconds\n", "1")}}),
               ProfError);
}

TEST(Merge, PreambleRules) {
  const std::string a = OneSample("type cpu nanoseconds\n", "1", "source 1 perf a -\n", "main",
                                  "meta host b\ntime 100\nduration 50\nperiod cpu ms 10\n"
                                  "comment one\n");
  const std::string b = OneSample("type cpu nanoseconds\n", "1", "source 1 perf b -\n", "main",
                                  "meta host a\ntime 120\nduration 100\nperiod cpu us 20\n"
                                  "comment two\n");
  const Profile p = testing::Parse(MergeTexts({{"a", a}, {"b", b}}));
  EXPECT_EQ(p.header.time_nanos, 100);
  EXPECT_EQ(p.header.duration_nanos, 120);  // from 100 to 220
  EXPECT_EQ(p.header.period.type.unit, "us");
  EXPECT_EQ(p.header.period.value, 10000);
  // The inputs disagree on host: each source keeps its own (KEY@SOURCE).
  ASSERT_EQ(p.header.meta.size(), 2u);
  EXPECT_EQ(p.header.meta[0], (MetaEntry{"host@1", "b"}));
  EXPECT_EQ(p.header.meta[1], (MetaEntry{"host@2", "a"}));
  EXPECT_EQ(p.header.comments, (std::vector<std::string>{"one", "two"}));
  // Without a duration everywhere, the span is unknown.
  const Profile q = testing::Parse(MergeTexts({{"a", a}, {"c", OneSample("type cpu ns\n", "1")}}));
  EXPECT_FALSE(q.header.duration_nanos);
  EXPECT_EQ(q.header.time_nanos, 100);
}

TEST(Merge, AnInputWithoutSourcesGetsOneNamedAfterIt) {
  const Profile p = testing::Parse(MergeTexts({{"empty.prof", "proftext 1.0\ntype samples count\n"},
                                               {"a", OneSample("type samples count\n", "1")}}));
  ASSERT_EQ(p.header.sources.size(), 2u);
  EXPECT_EQ(p.header.sources[0].type, "prof");
  EXPECT_EQ(p.header.sources[0].uri, "empty.prof");
}

TEST(Merge, AFailedInputLeavesARecoverableMergeAsItWas) {
  const std::string good = OneSample("type samples count\n", "1");
  const std::string other = OneSample("type samples count\ntype wall seconds\n", "1 2",
                                      "source 1 perf other -\n", "other_function");
  const MergeOptions recoverable{false, false, true, {}};
  for (const std::string& bad : {other.substr(0, other.size() - 4) + "x\n",    // a bad last sample
                                 OneSample("type samples widgets\n", "1")}) {  // a unit conflict
    Merger merger(recoverable);
    for (const std::string& text : {good, bad}) {
      Input input;
      input.name = "in";
      input.stream = std::make_unique<MemoryStream>(text);
      try {
        merger.Add(input, "in");
      } catch (const ProfError&) {
      }
    }
    StringSink out;
    CanonicalWriter writer(&out);
    merger.Finish(&writer);
    EXPECT_EQ(out.text(), MergeTexts({{"in", good}}));
  }
}

// Collects warnings in order, naming their files.
class RecordingWarnings : public DiagnosticHandler {
 public:
  void Warning(const Diagnostic& d) override { seen.push_back(d.file); }
  std::vector<std::string> seen;
};

TEST(Merge, PrefetchedInputsMergeAsAddedOnesWithMessagesInTheirOrder) {
  const std::string dir = ::testing::TempDir();
  const std::string a = dir + "/prefetch-a.prof", b = dir + "/prefetch-b.callgrind";
  const std::string text_a = OneSample("type samples count\n", "1");
  // totals: that disagree with the cost lines: a warning from the callgrind reader.
  const std::string text_b = "# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 10\ntotals: 99\n";
  for (const auto& [path, text] : {std::make_pair(a, text_a), std::make_pair(b, text_b)}) {
    std::ofstream(path) << text;
  }
  RecordingWarnings warnings;
  MergeOptions options;
  options.recoverable = true;
  options.read.warnings = &warnings;
  Merger merger(options);
  // Started all at once, as prof-merge starts the next before merging this one.
  auto first = merger.Prefetch(a, a);
  auto missing = merger.Prefetch(dir + "/prefetch-missing.prof", "missing");
  auto second = merger.Prefetch(b, b);
  merger.Add(std::move(first));
  EXPECT_TRUE(warnings.seen.empty()) << "b's warning is shown when b is merged";
  EXPECT_THROW(merger.Add(std::move(missing)), ProfError);  // in its turn, the merge unharmed
  merger.Add(std::move(second));
  EXPECT_EQ(warnings.seen, std::vector<std::string>{b});
  StringSink out;
  CanonicalWriter writer(&out);
  merger.Finish(&writer);
  Merger added(MergeOptions{});
  for (const std::string& path : {a, b}) {
    Input input = OpenInput(path);
    added.Add(input, path);
  }
  StringSink expected;
  CanonicalWriter expected_writer(&expected);
  added.Finish(&expected_writer);
  EXPECT_EQ(out.text(), expected.text());
  // An input read ahead but never merged (an earlier one failed) is stopped, not waited for.
  auto unwanted = merger.Prefetch(a, a);
}

TEST(Merge, ReadAheadHandsInputsOutInOrderAndReadsTwoAheadOfSmallOnes) {
  const std::string dir = ::testing::TempDir();
  std::vector<std::string> paths;
  for (const char* name : {"ahead-0", "ahead-big", "ahead-2", "ahead-3", "ahead-4"}) {
    paths.push_back(dir + "/" + name + ".prof");
    std::ofstream(paths.back()) << OneSample("type samples count\n", "1");
  }
  // A large file (sparse: its size is what counts) is read one ahead only: a pprof input is
  // held inflated while it is read.
  ASSERT_EQ(truncate(paths[1].c_str(), off_t{8} << 20), 0);
  MergeOptions options;
  options.recoverable = true;
  Merger merger(options);
  ReadAhead inputs(&merger, paths);
  std::vector<size_t> ahead, failed;
  for (size_t i = 0; std::unique_ptr<PrefetchedInput> input = inputs.Next(); ++i) {
    ahead.push_back(inputs.reading_ahead());
    try {
      merger.Add(std::move(input));
    } catch (const ProfError&) {
      failed.push_back(i);  // in its turn
    }
  }
  // While 0 is merged, 1 is read, but not 2: 1 is large. Then two ahead again, to the end.
  EXPECT_EQ(ahead, (std::vector<size_t>{1, 2, 2, 1, 0}));
  EXPECT_EQ(failed, std::vector<size_t>{1});
  EXPECT_EQ(merger.input_count(), 4u);
}

TEST(MergeUnits, FinerUnitIsAnOrder) {
  EXPECT_EQ(FinerUnit("milliseconds", "ns"), "ns");
  EXPECT_EQ(FinerUnit("ns", "nanoseconds"), "nanoseconds");
  EXPECT_EQ(ConversionFactor("MiB", "bytes"), 1048576);
  EXPECT_FALSE(UnitsConvertible("bytes", "count"));
  EXPECT_TRUE(UnitsConvertible("widgets", "widgets"));
}

}  // namespace
}  // namespace merge_test
}  // namespace proftools

namespace proftools {
namespace merge_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(StackTable, InternsByContentAndForgetsOnTruncate) {
  StackTable table;
  bool is_new;
  EXPECT_EQ(table.Intern({}, &is_new), 1u);  // the empty stack is a stack
  EXPECT_TRUE(is_new);
  EXPECT_EQ(table.Intern({1, 200, 3}, &is_new), 2u);
  EXPECT_EQ(table.Intern({1, 200}, &is_new), 3u);  // a prefix is another stack
  EXPECT_TRUE(is_new);
  EXPECT_EQ(table.Intern({1, 200, 3}, &is_new), 2u);
  EXPECT_FALSE(is_new);
  EXPECT_EQ(table.Intern({}, &is_new), 1u);
  EXPECT_FALSE(is_new);
  table.TruncateTo(2);
  EXPECT_EQ(table.Intern({1, 200}, &is_new), 3u);  // forgotten, numbered again
  EXPECT_TRUE(is_new);
  for (uint64_t i = 0; i < 5000; ++i) table.Intern({i, i * 1000003}, &is_new);  // growth
  EXPECT_EQ(table.size(), 5003u);
  EXPECT_EQ(table.Intern({1, 200, 3}, &is_new), 2u);
}

// Keys live in blocks (a large key in one of its own): truncating into an earlier block drops
// the later ones, and what is interned next is kept apart from what was forgotten.
TEST(StackTable, TruncatesAcrossBlocksAndKeepsEveryKey) {
  StackTable table;
  bool is_new;
  const auto stack = [](uint64_t i) {
    // Most keys a few bytes; every 1000th long enough to need a block to itself.
    return std::vector<uint64_t>(i % 1000 == 999 ? 300000 : 1 + i % 7, i + 1);
  };
  for (uint64_t i = 0; i < 20000; ++i) ASSERT_EQ(table.Intern(stack(i), &is_new), i + 1);
  table.TruncateTo(4321);
  for (uint64_t i = 4321; i < 8000; ++i) {
    ASSERT_EQ(table.Intern(stack(i + 100000), &is_new), i + 1);  // other keys, same ids
    ASSERT_TRUE(is_new);
  }
  for (uint64_t i = 0; i < 4321; ++i) {
    ASSERT_EQ(table.Intern(stack(i), &is_new), i + 1) << i;  // the first ones kept
    ASSERT_FALSE(is_new);
  }
  for (uint64_t i = 4321; i < 8000; ++i) {
    ASSERT_EQ(table.Intern(stack(i + 100000), &is_new), i + 1) << i;
    ASSERT_FALSE(is_new);
  }
  EXPECT_EQ(table.Intern(stack(5000), &is_new), 8001u);  // forgotten: new again
  EXPECT_TRUE(is_new);
  // Encoded gives the ids back as they were interned.
  std::string expected;
  for (int i = 0; i < 300000; ++i) expected += static_cast<char>(0xe8), expected += '\x07';
  EXPECT_EQ(table.Encoded(1000), expected);  // stack(999): 300,000 times 1000
}

TEST(MergeSpool, RecordsComeBackAsWritten) {
  MergeSpool spool;
  Mapping m{3, 0x400000, 0x500000, 0x10, "/bin/x", "id", true, false, true, false};
  Function f{4, "f", "_Zf", "f.c", 12};
  Location l{5, 3, 0x401000, true, {{4, 7, 2}, {4, 8, 0}}};
  Sample s{1,
           2,
           100,
           std::nullopt,
           {-5, INT64_MAX},
           {Label::String("k", "v w"), Label::Number("n", -3, "bytes")}};
  spool.WriteInput(0);
  spool.WriteMapping(m);
  spool.WriteFunction(f);
  spool.WriteLocation(l);
  spool.WriteStack(2, {5, 5});
  const uint64_t mark = spool.Mark();
  spool.WriteSample(1, 2, s, spool.LabelSetId(s.labels));
  spool.TruncateTo(mark);  // taken back
  spool.WriteSample(1, 2, s, spool.LabelSetId(s.labels));
  spool.Rewind();
  Mapping m2;
  Function f2;
  Location l2;
  Stack st;
  Sample s2;
  ASSERT_EQ(spool.Next(), SpoolRecord::kInput);
  EXPECT_EQ(spool.ReadInput(), 0u);
  ASSERT_EQ(spool.Next(), SpoolRecord::kMapping);
  spool.ReadMapping(&m2);
  EXPECT_EQ(m2, m);
  ASSERT_EQ(spool.Next(), SpoolRecord::kFunction);
  spool.ReadFunction(&f2);
  EXPECT_EQ(f2, f);
  ASSERT_EQ(spool.Next(), SpoolRecord::kLocation);
  spool.ReadLocation(&l2);
  EXPECT_EQ(l2, l);
  ASSERT_EQ(spool.Next(), SpoolRecord::kStack);
  spool.ReadStack(&st);
  EXPECT_EQ(st, (Stack{2, {5, 5}}));
  ASSERT_EQ(spool.Next(), SpoolRecord::kSample);
  spool.ReadSample(2, &s2);
  EXPECT_EQ(s2, s);
  EXPECT_EQ(spool.Next(), SpoolRecord::kEnd);
}

// SkipSample passes over exactly one sample, whatever its times and values (huge varints
// included), whether the sample is well inside the read buffer or at its very end.
TEST(MergeSpool, SkipSamplePassesOverOneSample) {
  MergeSpool spool;
  const std::vector<Sample> samples = {
      Sample{1, 2, std::nullopt, std::nullopt, {1, 2}, {}},
      Sample{UINT32_MAX, 3, -7, 9, {INT64_MIN, INT64_MAX}, {Label::String("k", "v")}},
      Sample{5, UINT64_MAX, 100, std::nullopt, {0, -1}, {}},
      Sample{6, 7, std::nullopt, 3, {300, 1 << 20}, {Label::Number("n", 4, "")}},
  };
  for (int round = 0; round < 500; ++round) {
    for (const Sample& sample : samples)
      spool.WriteSample(sample.source_id, sample.stack_id, sample, spool.LabelSetId(sample.labels));
  }
  spool.WriteStack(9, {1, 2, 3});  // a record after the samples: the skipping stopped in place
  spool.Rewind();
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(spool.Next(), SpoolRecord::kSample) << i;
    if (i % 4 == 3) {
      Sample read;
      spool.ReadSample(2, &read);
      EXPECT_EQ(read, samples[3]) << i;
    } else {
      spool.SkipSample(2);
    }
  }
  ASSERT_EQ(spool.Next(), SpoolRecord::kStack);
  Stack stack;
  spool.ReadStack(&stack);
  EXPECT_EQ(stack, (Stack{9, {1, 2, 3}}));
  EXPECT_EQ(spool.Next(), SpoolRecord::kEnd);
}

}  // namespace
}  // namespace merge_test
}  // namespace proftools
