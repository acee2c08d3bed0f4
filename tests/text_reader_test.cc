#include "common/text/text_reader.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace proftools {
namespace text_reader_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::Parse;
using testing::Preamble;
using testing::RulesBroken;
using testing::Violations;

TEST(TextReader, ReadsEveryRecordKind) {
  const Profile p = Parse(
      "proftext 1.0\n"
      "meta host build-7\n"
      "comment \"a remark\"\n"
      "time 1700000000000000000\n"
      "duration 1000000000\n"
      "period cpu nanoseconds 10000000\n"
      "doc_url https://example.com/doc\n"
      "drop_frames ^malloc$\n"
      "keep_frames ^main$\n"
      "source 3 perf perf.txt -\n"
      "type samples count\n"
      "type cpu nanoseconds\n"
      "default_type cpu\n"
      "mapping 9 0x400000 0x4a0000 0x1000 /usr/bin/x abc FN,LN\n"
      "function 7 leaf _Z4leafv lib.c 5\n"
      "function 8 main \"\" main.c 10\n"
      "location 4 9 0x401234 folded 7:7 8:25:9\n"
      "location 5 - 0x0 -\n"
      "stack 2 4 5\n"
      "sample 3 2 1700000000010000000 500 3 30000000 thread=main tid=42 alloc=4096:bytes\n");
  const ProfileHeader& h = p.header;
  EXPECT_EQ(h.meta, (std::vector<MetaEntry>{{"host", "build-7"}}));
  EXPECT_EQ(h.comments, (std::vector<std::string>{"a remark"}));
  EXPECT_EQ(h.time_nanos, 1700000000000000000);
  EXPECT_EQ(h.duration_nanos, 1000000000);
  EXPECT_EQ(h.period, (Period{{"cpu", "nanoseconds"}, 10000000}));
  EXPECT_EQ(h.doc_url, "https://example.com/doc");
  EXPECT_EQ(h.drop_frames, "^malloc$");
  EXPECT_EQ(h.keep_frames, "^main$");
  EXPECT_EQ(h.sources, (std::vector<Source>{{3, "perf", "perf.txt", std::nullopt}}));
  EXPECT_EQ(h.types, (std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}}));
  EXPECT_EQ(h.default_type, "cpu");
  EXPECT_EQ(h.DefaultTypeIndex(), 1);

  const Mapping* m = p.defs.mappings.Find(9);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->start, 0x400000u);
  EXPECT_EQ(m->limit, 0x4a0000u);
  EXPECT_EQ(m->offset, 0x1000u);
  EXPECT_EQ(m->file, "/usr/bin/x");
  EXPECT_EQ(m->build_id, "abc");
  EXPECT_TRUE(m->has_functions && !m->has_filenames && m->has_line_numbers &&
              !m->has_inline_frames);

  EXPECT_EQ(*p.defs.functions.Find(7), (Function{7, "leaf", "_Z4leafv", "lib.c", 5}));
  EXPECT_EQ(*p.defs.functions.Find(8), (Function{8, "main", "", "main.c", 10}));
  EXPECT_EQ(*p.defs.locations.Find(4), (Location{4, 9, 0x401234, true, {{7, 7, 0}, {8, 25, 9}}}));
  EXPECT_EQ(*p.defs.locations.Find(5), (Location{5, 0, 0, false, {}}));
  EXPECT_EQ(*p.defs.stacks.Find(2), (Stack{2, {4, 5}}));
  ASSERT_EQ(p.samples.size(), 1u);
  const Sample& s = p.samples[0];
  EXPECT_EQ(s.source_id, 3u);
  EXPECT_EQ(s.stack_id, 2u);
  EXPECT_EQ(s.time_nanos, 1700000000010000000);
  EXPECT_EQ(s.duration_nanos, 500);
  EXPECT_EQ(s.values, (std::vector<int64_t>{3, 30000000}));
  EXPECT_EQ(s.labels, (std::vector<Label>{Label::String("thread", "main"), Label::Number("tid", 42),
                                          Label::Number("alloc", 4096, "bytes")}));
}

TEST(TextReader, SamplesAreKeptRawAndInOrder) {
  const Profile p = Parse(Preamble() +
                          "stack 1\n"
                          "sample 1 1 - - 1\n"
                          "sample 1 1 - - 1\n"
                          "sample 1 1 5 - 2\n");
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(p.samples[2].values, (std::vector<int64_t>{2}));
  EXPECT_EQ(p.samples[2].time_nanos, 5);
}

TEST(TextReader, IgnoresCommentsBlankLinesAndCarriageReturns) {
  const Profile p = Parse(
      "proftext 1.0\r\n"
      "# a comment\r\n"
      "\r\n"
      "   \t\n"
      "  source 1 manual x -   # trailing comment\r\n"
      "type samples count\r\n");
  EXPECT_EQ(p.header.sources.size(), 1u);
  EXPECT_EQ(p.header.types.size(), 1u);
}

// One snippet per rule: the rule it breaks and the line it is reported on.
struct RuleCase {
  const char* rule;
  std::string text;
  uint64_t line;
};

TEST(TextReader, EachRuleIsReportedWithItsNameAndLine) {
  const std::string p = Preamble();  // lines 1-3
  const std::vector<RuleCase> cases = {
      {"header", "profile 1.0\n", 1},
      {"header", "proftext 1\n", 1},
      {"header", "", 0},
      {"version", "proftext 2.0\n", 1},
      {"version", "proftext 0.9\n", 1},
      {"version", "proftext 999999999.0\n", 1},
      {"header", "proftext 1000000000.0\n", 1},  // at most 9 digits
      {"header", "proftext 1.00\n", 1},
      {"header-repeated", p + "proftext 1.0\n", 4},
      {"final-newline", p + "stack 1", 4},
      {"final-newline", p + "function 1 \"cut sh", 4},  // before the unclosed quote
      {"final-newline", "proftext 1.0", 1},
      {"syntax", p + "function 1 \"x \"\" 0\n", 4},
      {"unknown-record", p + "frame 1\n", 4},
      {"field-count", p + "stack\n", 4},
      {"number", p + "stack 1\nsample 1 1 - - x\n", 5},
      {"number", p + "stack 1\nsample 1 1 - 01 1\n", 5},
      {"flags", p + "mapping 1 0x0 0x0 0x0 f b LN,FN\n", 4},
      {"flags", p + "location 1 - 0x0 yes\n", 4},
      {"line-entry", p + "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1\n", 5},
      {"label", p + "stack 1\nsample 1 1 - - 1 k=v 2\n", 5},
      {"label", p + "stack 1\nsample 1 1 - - 1 2\n", 5},  // a value too many is not a label
      {"label", p + "stack 1\nsample 1 1 - - 1 x\n", 5},
      {"label", p + "stack 1\nsample 1 1 - - 1 k=1:\"\"\n", 5},  // units are non-empty
      {"order", p + "stack 1\ntype cpu ns\n", 5},
      {"meta-duplicate", "proftext 1.0\nmeta k a\nmeta k b\n", 3},
      {"type-duplicate", p + "type samples bytes\n", 4},
      {"no-types", "proftext 1.0\nsource 1 m x -\nstack 1\n", 3},
      {"no-types", "proftext 1.0\n", 0},
      {"id-zero", p + "stack 0\n", 4},
      {"id-zero", p + "stack 1 0\n", 4},                    // a reference to 0
      {"id-zero", p + "location 1 0 0x0 -\n", 4},           // not a spelling of '-'
      {"id-zero", p + "stack 1\nsample 0 1 - - k=v\n", 5},  // the first bad field decides
      {"id-duplicate", p + "stack 1\nstack 1\n", 5},
      {"undefined", p + "stack 1 5\n", 4},
      {"undefined", p + "stack 1\nsample 2 1 - - 1\n", 5},
      {"value-count", p + "stack 1\nsample 1 1 - -\n", 5},
      {"value-count", p + "stack 1\nsample 1 1 - - k=v\n", 5},
      {"value-count", p + "stack 1\nsample 1 9 - -\n", 5},  // fields before references
      {"empty-name", p + "function 1 \"\" \"\" \"\" 0\n", 4},
      {"empty-name", p + "stack 1\nsample 1 1 - - 1 \"\"=x\n", 5},
      {"empty-name", "proftext 1.0\ndoc_url \"\"\n", 2},  // "" is pprof's "not set"
      {"negative-line", p + "function 1 f \"\" \"\" -1\n", 4},
      {"negative-line", p + "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:2:-3\n", 5},
      {"negative-time", p + "stack 1\nsample 1 1 - -2 1\n", 5},
      {"negative-time", "proftext 1.0\nduration -1\n", 2},
  };
  for (const RuleCase& c : cases) {
    const std::vector<Diagnostic> found = Violations(c.text);
    ASSERT_FALSE(found.empty()) << c.rule << ": no violation in\n" << c.text;
    EXPECT_STREQ(RuleName(found.front().rule), c.rule) << c.text;
    EXPECT_EQ(found.front().line, c.line) << c.text;
    EXPECT_EQ(found.front().file, "test.prof");
  }
}

TEST(TextReader, RepeatedSingletonsAreReported) {
  EXPECT_EQ(RulesBroken(Preamble() + "time 1\ntime 2\n"), (std::vector<std::string>{"repeated"}));
  EXPECT_EQ(RulesBroken(Preamble() + "default_type samples\ndefault_type samples\n"),
            (std::vector<std::string>{"repeated"}));
}

TEST(TextReader, DefaultTypeMustNameAnEarlierType) {
  EXPECT_EQ(RulesBroken("proftext 1.0\nsource 1 m x -\ndefault_type cpu\ntype cpu ns\n"),
            (std::vector<std::string>{"undefined"}));
}

TEST(TextReader, VersionMessageNamesBothVersions) {
  const std::vector<Diagnostic> found = Violations("proftext 3.0\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].Format(),
            "test.prof:1: format version 3.0 is newer than this program reads (1.x); upgrade "
            "proftools [version]");
}

TEST(TextReader, ABrokenDefinitionDoesNotCascade) {
  // The stack line is malformed, but its id parsed: the sample's reference to it is not
  // reported again.
  EXPECT_EQ(RulesBroken(Preamble() + "stack 1 x\nsample 1 1 - - 1\n"),
            (std::vector<std::string>{"number"}));
}

// prof-validate's recovery (spec §6.3): one bad line is reported once, not again by the lines
// that depend on it.
TEST(TextReader, ARefusedTypeLineStillDeclaresAColumn) {
  const std::string tail = "stack 1\nsample 1 1 - - 1 2\n";
  EXPECT_EQ(RulesBroken(Preamble() + "type samples bytes\n" + tail),
            (std::vector<std::string>{"type-duplicate"}));
  EXPECT_EQ(RulesBroken(Preamble() + "type cpu\n" + tail),
            (std::vector<std::string>{"field-count"}));
  EXPECT_EQ(RulesBroken(Preamble() + "type \"wall time ns\n" + tail),
            (std::vector<std::string>{"syntax"}));
}

TEST(TextReader, AnUnparsedFirstBodyLineStillStartsTheBody) {
  EXPECT_EQ(RulesBroken("proftext 1.0\nsource 1 m x -\nstack x\ntime 1\n"),
            (std::vector<std::string>{"number", "no-types", "order"}));
  EXPECT_EQ(RulesBroken("proftext 1.0\nsource 1 m x -\n\tstack \"x\ntime 1\n"),
            (std::vector<std::string>{"syntax", "no-types", "order"}));
}

TEST(TextReader, ALineCutShortIsStillRead) {
  EXPECT_EQ(RulesBroken(Preamble() + "stack 0"),
            (std::vector<std::string>{"final-newline", "id-zero"}));
}

TEST(TextReader, NewerMinorVersionSkipsUnknownRecordsWithOneWarning) {
  MemoryStream stream("proftext 1.9\nsource 1 m x -\ntype samples count\nfuture 1\nfuture 2\n");
  ProfileBuilder builder;
  testing::CollectingHandler handler;
  const TextReadStats stats = ReadText(&stream, "f", &builder, &handler);
  EXPECT_TRUE(handler.errors.empty());
  ASSERT_EQ(handler.warnings.size(), 1u);
  EXPECT_EQ(handler.warnings[0].line, 4u);
  EXPECT_EQ(stats.skipped_records, 2u);
  EXPECT_EQ(stats.minor, 9);
}

TEST(TextReader, DefaultHandlerThrowsTheFirstViolation) {
  try {
    Parse(Preamble() + "stack 1 9\n");
    FAIL() << "no exception";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(),
              "test.prof:4: stack 1 refers to location 9, which is not defined on an earlier "
              "line [undefined]");
  }
}

TEST(TextReader, LinesLongerThanTheLimitAreRefused) {
  std::string text = Preamble() + "comment " + std::string(LineReader::kDefaultMaxLine + 10, 'x');
  EXPECT_EQ(RulesBroken(text), (std::vector<std::string>{"line-too-long"}));
}

}  // namespace
}  // namespace text_reader_test
}  // namespace proftools
