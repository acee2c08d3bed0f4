#include "common/rprof/rprof_converter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/model/checker.h"
#include "common/model/sink.h"
#include "common/rprof/rprof_scan.h"

namespace proftools {
namespace rprof_converter_test {  // a namespace of its own: the tests build as one unit
namespace {

class CollectingHandler : public DiagnosticHandler {
 public:
  void Warning(const Diagnostic& diagnostic) override { warnings.push_back(diagnostic); }
  std::vector<Diagnostic> warnings;
};

struct Converted {
  Profile profile;
  std::vector<Diagnostic> warnings;
};

// Converts Rprof texts (one per input) as rprof2prof does: scan, then read again, through the
// checker.
Converted Convert(const std::vector<std::string>& texts, bool strict = false) {
  std::vector<RprofInput> inputs;
  for (size_t i = 0; i < texts.size(); ++i) {
    MemoryStream scan(texts[i]);
    const std::string name = "in" + std::to_string(i + 1) + ".out";
    inputs.push_back(RprofInput{name, name, ScanRprof(&scan, name)});
  }
  ProfileBuilder builder;
  DiagnosticHandler throwing;
  CheckingSink checked(&builder, &throwing, "test");
  CollectingHandler warnings;
  RprofOptions options;
  options.strict = strict;
  RprofConverter converter(&checked, inputs, &warnings, options);
  for (size_t i = 0; i < texts.size(); ++i) {
    MemoryStream again(texts[i]);
    converter.Convert(i, &again);
  }
  converter.Finish();
  return Converted{builder.Take(), warnings.warnings};
}

Converted Convert(const std::string& text, bool strict = false) {
  return Convert(std::vector<std::string>{text}, strict);
}

// A sample's frames, innermost first, as "name" or "name@file:line".
std::vector<std::string> Frames(const Profile& profile, const Sample& sample) {
  std::vector<std::string> out;
  const Stack* stack = profile.defs.stacks.Find(sample.stack_id);
  EXPECT_NE(stack, nullptr);
  if (stack == nullptr) return out;
  for (uint64_t id : stack->location_ids) {
    const Location* location = profile.defs.locations.Find(id);
    EXPECT_EQ(location->lines.size(), 1u);
    const Line& line = location->lines[0];
    const Function* function = profile.defs.functions.Find(line.function_id);
    std::string frame = function->name;
    if (!function->file.empty() || line.line != 0) {
      frame += "@" + function->file + ":" + std::to_string(line.line);
    }
    EXPECT_EQ(function->system_name, "");
    out.push_back(frame);
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(RprofConverter, PlainProfile) {
  const Converted c = Convert(
      "sample.interval=20000\n"
      "\"fib\" \"fib\" \"run\" \n"
      "\"<Anonymous>\" \"do.call\" \n");
  const ProfileHeader& h = c.profile.header;
  ASSERT_EQ(h.types.size(), 2u);
  EXPECT_EQ(h.types[0], (ValueType{"samples", "count"}));
  EXPECT_EQ(h.types[1], (ValueType{"cpu", "nanoseconds"}));
  EXPECT_EQ(h.default_type, "cpu");
  EXPECT_EQ(h.period, (Period{ValueType{"cpu", "nanoseconds"}, 20000000}));
  ASSERT_EQ(h.sources.size(), 1u);
  EXPECT_EQ(h.sources[0].type, "rprof");
  EXPECT_EQ(h.sources[0].uri, "in1.out");
  ASSERT_EQ(h.meta.size(), 1u);
  EXPECT_EQ(h.meta[0], (MetaEntry{"rprof.header", "sample.interval=20000"}));

  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_EQ(Frames(c.profile, c.profile.samples[0]), (Strings{"fib", "fib", "run"}));
  EXPECT_EQ(c.profile.samples[0].values, (std::vector<int64_t>{1, 20000000}));
  EXPECT_FALSE(c.profile.samples[0].time_nanos.has_value());
  EXPECT_EQ(Frames(c.profile, c.profile.samples[1]), (Strings{"<Anonymous>", "do.call"}));
  EXPECT_TRUE(c.warnings.empty());
  // Recursion shares one location; the same stack twice is one stack definition.
  EXPECT_EQ(c.profile.defs.functions.size(), 4u);
}

TEST(RprofConverter, LineProfilingGivesLocationsAndFunctionsByNameAndFile) {
  const Converted c = Convert(
      "line profiling: sample.interval=1000\n"
      "#File 1: /p/workloads.R\n"
      "1#7 \"fib\" 1#7 \"fib\" 1#20 \"run\" \n"
      "#File 2: <text>\n"
      "\"sum\" 2#3 \"g\" 1#51 \"run\" \n"
      "\"fib\" \n");
  ASSERT_EQ(c.profile.samples.size(), 3u);
  EXPECT_EQ(Frames(c.profile, c.profile.samples[0]),
            (Strings{"fib@/p/workloads.R:7", "fib@/p/workloads.R:7", "run@/p/workloads.R:20"}));
  EXPECT_EQ(Frames(c.profile, c.profile.samples[1]),
            (Strings{"sum", "g@<text>:3", "run@/p/workloads.R:51"}));
  // fib without a srcref is another function than fib in workloads.R: (name, file).
  EXPECT_EQ(Frames(c.profile, c.profile.samples[2]), (Strings{"fib"}));
  int fibs = 0;
  for (const Function& f : c.profile.defs.functions.items()) fibs += f.name == "fib";
  EXPECT_EQ(fibs, 2);
}

TEST(RprofConverter, TopLevelPseudoFrame) {
  const Converted c = Convert(
      "memory profiling: GC profiling: line profiling: sample.interval=1000\n"
      "#File 1: \n"
      ":10:20:30:0:1#3 \"f\" 1#3 \n"  // a srcref after the outermost frame: top-level code
      ":10:20:30:0:\n"                // no frame at all
      ":10:20:30:0:\"<GC>\" \n"       // only the GC marker
      ":10:20:30:0:\"<GC>\" \"g\" \n");
  ASSERT_EQ(c.profile.samples.size(), 4u);
  EXPECT_EQ(Frames(c.profile, c.profile.samples[0]), (Strings{"f@:3", "<toplevel>@:3"}));
  EXPECT_EQ(Frames(c.profile, c.profile.samples[1]), (Strings{"<toplevel>"}));
  EXPECT_EQ(Frames(c.profile, c.profile.samples[2]), (Strings{"<GC>", "<toplevel>"}));
  EXPECT_EQ(Frames(c.profile, c.profile.samples[3]), (Strings{"<GC>", "g"}));
  EXPECT_TRUE(c.warnings.empty());
}

TEST(RprofConverter, StacksAtRsLineLimitEndInTruncated) {
  std::string deep = "line profiling: sample.interval=1000\n#File 1: d.R\n";
  std::string line;
  while (line.size() < kRprofLineLimit) line += "1#5 \"deep\" ";
  deep += line + "\n";
  deep += "1#5 \"deep\" 1#9 \n";  // short: complete, with a trailing srcref
  const Converted c = Convert(deep);
  ASSERT_EQ(c.profile.samples.size(), 2u);
  const Strings frames = Frames(c.profile, c.profile.samples[0]);
  EXPECT_EQ(frames.size(), line.size() / 11 + 1);
  EXPECT_EQ(frames.front(), "deep@d.R:5");
  EXPECT_EQ(frames.back(), "<truncated>");
  EXPECT_EQ(Frames(c.profile, c.profile.samples[1]), (Strings{"deep@d.R:5", "<toplevel>@d.R:9"}));
  ASSERT_EQ(c.warnings.size(), 1u);  // a notice, once
  EXPECT_EQ(c.warnings[0].line, 3u);
  EXPECT_NE(c.warnings[0].message.find("limit of 10000 bytes"), std::string::npos);
}

TEST(RprofConverter, MemoryValuesAsSummaryRprofComputesThem) {
  const Converted c = Convert(
      "memory profiling: sample.interval=1000\n"
      ":100:1000:5000:3:\"a\" \n"    // first tick: nothing to compare with
      ":110:990:5600:0:\"b\" \n"     // +10 cells small, -10 big (not counted), +600 nodes
      ":110:990:5600:7:\n"           // bare line: a <toplevel> sample, no growth
      ":105:2000:5000:1:\"a\" \n");  // +1010 cells big
  ASSERT_EQ(c.profile.header.types.size(), 4u);
  EXPECT_EQ(c.profile.header.types[2], (ValueType{"alloc", "bytes"}));
  EXPECT_EQ(c.profile.header.types[3], (ValueType{"duplications", "count"}));
  const std::vector<Sample>& s = c.profile.samples;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].values, (std::vector<int64_t>{1, 1000000, 0, 3}));
  EXPECT_EQ(s[1].values, (std::vector<int64_t>{1, 1000000, 10 * 8 + 600, 0}));
  EXPECT_EQ(s[2].values, (std::vector<int64_t>{1, 1000000, 0, 7}));
  EXPECT_EQ(s[3].values, (std::vector<int64_t>{1, 1000000, 1010 * 8, 1}));
  EXPECT_EQ(Frames(c.profile, s[2]), (Strings{"<toplevel>"}));
  ASSERT_EQ(s[1].labels.size(), 3u);
  EXPECT_EQ(s[1].labels[0], Label::Number("vsize.small", 880, "bytes"));
  EXPECT_EQ(s[1].labels[1], Label::Number("vsize.large", 7920, "bytes"));
  EXPECT_EQ(s[1].labels[2], Label::Number("nodes", 5600, "bytes"));
}

TEST(RprofConverter, AppendedSessionsAreSourcesWithTheirOwnIntervalAndFiles) {
  // The first session has no memory profiling; the second turns it on: the types must be known
  // before the first sample.
  const Converted c = Convert(
      "sample.interval=1000\n"
      "\"f\" \n"
      "memory profiling: line profiling: sample.interval=2000\n"
      "#File 1: /b.R\n"
      ":10:10:10:0:1#4 \"g\" \n"
      ":20:10:10:0:1#4 \"g\" \n"
      "line profiling: sample.interval=3000\n"
      "#File 1: /c.R\n"
      "1#4 \"g\" \n");
  const ProfileHeader& h = c.profile.header;
  ASSERT_EQ(h.sources.size(), 3u);
  EXPECT_EQ(h.types.size(), 4u);
  EXPECT_EQ(h.period.value, 1000000);
  EXPECT_EQ(h.meta[1], (MetaEntry{"rprof.header@2",
                                  "memory profiling: line profiling: sample.interval=2000"}));
  const std::vector<Sample>& s = c.profile.samples;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].source_id, 1u);
  EXPECT_EQ(s[0].values, (std::vector<int64_t>{1, 1000000, 0, 0}));
  EXPECT_TRUE(s[0].labels.empty());
  EXPECT_EQ(s[1].source_id, 2u);
  EXPECT_EQ(s[1].values, (std::vector<int64_t>{1, 2000000, 0, 0}));
  EXPECT_EQ(s[2].values, (std::vector<int64_t>{1, 2000000, 80, 0}));
  EXPECT_EQ(s[3].source_id, 3u);
  EXPECT_EQ(s[3].values, (std::vector<int64_t>{1, 3000000, 0, 0}));
  // #File numbering restarts: the same text means another file in the third session.
  EXPECT_EQ(Frames(c.profile, s[2]), (Strings{"g@/b.R:4"}));
  EXPECT_EQ(Frames(c.profile, s[3]), (Strings{"g@/c.R:4"}));
  EXPECT_TRUE(c.warnings.empty());
}

TEST(RprofConverter, SeveralInputsMakeOneProfile) {
  const Converted c = Convert(
      std::vector<std::string>{"sample.interval=1000\n\"f\" \n",
                               "memory profiling: sample.interval=5000\n:1:1:1:1:\"f\" \n"});
  ASSERT_EQ(c.profile.header.sources.size(), 2u);
  EXPECT_EQ(c.profile.header.sources[1].uri, "in2.out");
  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_EQ(c.profile.samples[1].source_id, 2u);
  EXPECT_EQ(c.profile.samples[0].stack_id, c.profile.samples[1].stack_id);
  EXPECT_EQ(c.profile.samples[1].values, (std::vector<int64_t>{1, 5000000, 0, 1}));
}

TEST(RprofConverter, NameWithANewlineIsJoined) {
  const Converted c = Convert(
      "sample.interval=1000\n"
      "1#34 \"nl\n"
      "name\" \"eval\" \n"
      "\"f\" \n");
  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_EQ(Frames(c.profile, c.profile.samples[0]), (Strings{"nl\nname", "eval"}));
  ASSERT_EQ(c.warnings.size(), 2u);  // the newline notice, and the undefined file 1
  EXPECT_EQ(c.warnings[0].line, 2u);
  EXPECT_NE(c.warnings[0].message.find("newline"), std::string::npos);
  EXPECT_NE(c.warnings[1].message.find("no #File line"), std::string::npos);
}

// A continuation that closes one name and opens the next keeps the sample waiting.
TEST(RprofConverter, NamesOverSeveralLinesAreJoined) {
  const Converted c = Convert(
      "sample.interval=1000\n"
      "\"a\n"
      "b\n"
      "c\" \"d\n"
      "e\" \"f\" \n"
      "\"g\" \n");
  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_EQ(Frames(c.profile, c.profile.samples[0]), (Strings{"a\nb\nc", "d\ne", "f"}));
  EXPECT_EQ(Frames(c.profile, c.profile.samples[1]), (Strings{"g"}));
  ASSERT_EQ(c.warnings.size(), 1u);  // the newline notice only
}

TEST(RprofConverter, CutLinesKeepTheirFramesUnderTruncated) {
  const Converted c = Convert(
      "sample.interval=1000\n"
      "\"a\" \"ev\n"      // ends inside a name, and the next line starts a sample
      "\"a\" \"eval\"\n"  // the closing quote survived
      "\"a\" \"b\" 5#\n"  // a srcref cut short
      "garbage here\n"    // not an Rprof line
      "\"a\" \"b\" ");    // no final newline
  const std::vector<Sample>& s = c.profile.samples;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(Frames(c.profile, s[0]), (Strings{"a", "<truncated>"}));
  EXPECT_EQ(Frames(c.profile, s[1]), (Strings{"a", "eval", "<truncated>"}));
  EXPECT_EQ(Frames(c.profile, s[2]), (Strings{"a", "b", "<truncated>"}));
  EXPECT_EQ(Frames(c.profile, s[3]), (Strings{"a", "b", "<truncated>"}));
  // First of each kind, located; then the count.
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0].line, 2u);
  EXPECT_EQ(c.warnings[1].line, 5u);
  EXPECT_NE(c.warnings[1].message.find("not an Rprof line"), std::string::npos);
  EXPECT_EQ(c.warnings[2].line, 0u);
  EXPECT_NE(c.warnings[2].message.find("4 sample lines were cut short"), std::string::npos);
}

TEST(RprofConverter, StrictMakesProblemsErrors) {
  try {
    Convert("sample.interval=1000\n\"f\" \nnonsense\n", /*strict=*/true);
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().file, "in1.out");
    EXPECT_EQ(e.diagnostic().line, 3u);
    EXPECT_NE(e.diagnostic().message.find("--strict"), std::string::npos);
  }
  // R's own ambiguities are not errors.
  EXPECT_NO_THROW(Convert("sample.interval=1000\n\"nl\nname\" \"a\" b\" \n", true));
}

TEST(RprofConverter, MemoryPrefixProblems) {
  const Converted c = Convert(
      "memory profiling: sample.interval=1000\n"
      ":1:2:3:\"f\" \n"  // malformed: skipped
      "\"f\" \n"         // no prefix in a memory session: a sample without memory values
      "sample.interval=1000\n"
      ":1:2:3:4:\"f\" \n");  // a prefix the header did not announce: ignored
  const std::vector<Sample>& s = c.profile.samples;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].values, (std::vector<int64_t>{1, 1000000, 0, 0}));
  EXPECT_TRUE(s[0].labels.empty());
  EXPECT_TRUE(s[1].labels.empty());
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0].line, 2u);
  EXPECT_EQ(c.warnings[1].line, 3u);
  EXPECT_EQ(c.warnings[2].line, 5u);
}

TEST(RprofConverter, RepeatedProblemsAreCountedOnCachedLines) {
  const Converted c = Convert("sample.interval=1000\n\"a\" \"b\n\"a\" \"b\n\"a\" \"b\n");
  ASSERT_EQ(c.profile.samples.size(), 3u);
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[1].message.find("3 sample lines were cut short"), std::string::npos);
}

TEST(RprofScan, RefusesWhatIsNotRprof) {
  MemoryStream text("proftext 1.0\n");
  EXPECT_THROW(ScanRprof(&text, "x"), ProfError);
  MemoryStream empty("");
  EXPECT_THROW(ScanRprof(&empty, "x"), ProfError);
  MemoryStream body("\"f\" \n");
  try {
    ScanRprof(&body, "x.out");
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().line, 1u);
    EXPECT_NE(e.diagnostic().message.find("not an Rprof file"), std::string::npos);
  }
}

TEST(RprofScan, FindsEverySessionAndCountsBytes) {
  const std::string text =
      "sample.interval=1000\n\"f\" \nname\" \"sample.interval=5\" \n"
      "memory profiling: sample.interval=20\n:1:1:1:1:\n";
  MemoryStream stream(text);
  const RprofPlan plan = ScanRprof(&stream, "x");
  ASSERT_EQ(plan.sessions.size(), 2u);
  EXPECT_EQ(plan.sessions[1].line, 4u);
  EXPECT_TRUE(plan.sessions[1].header.memory);
  EXPECT_TRUE(plan.HasMemory());
  EXPECT_EQ(plan.bytes, text.size());
}

TEST(RprofScan, SpoolKeepsEveryByte) {
  const std::string text = "sample.interval=1000\n\"f\" \n\"g\" ";
  MemoryStream stream(text);
  SpoolFile spool;
  ScanRprof(&stream, "x", spool.fd());
  std::unique_ptr<ByteStream> again = spool.Reopen("x");
  std::string copy(100, '\0');
  copy.resize(again->Read(copy.data(), copy.size()));
  EXPECT_EQ(copy, text);
}

TEST(RprofConverter, ReadsNoFurtherThanTheScan) {
  // A file that grew between the passes (R still writing): the new part is not read.
  const std::string first = "sample.interval=1000\n\"f\" \n";
  MemoryStream scan(first);
  std::vector<RprofInput> inputs{RprofInput{"x", "x", ScanRprof(&scan, "x")}};
  ProfileBuilder builder;
  CollectingHandler warnings;
  RprofConverter converter(&builder, inputs, &warnings, RprofOptions());
  MemoryStream grown(first + "\"g\" \nsample.interval=5\n\"h\" \n");
  converter.Convert(0, &grown);
  converter.Finish();
  EXPECT_EQ(builder.Take().samples.size(), 1u);
}

TEST(RprofConverter, AChangedFileIsAnError) {
  MemoryStream scan("sample.interval=1000\n\"ffffffffffffffffffff\" \n");
  std::vector<RprofInput> inputs{RprofInput{"x", "x", ScanRprof(&scan, "x")}};
  ProfileBuilder builder;
  CollectingHandler warnings;
  RprofConverter converter(&builder, inputs, &warnings, RprofOptions());
  MemoryStream changed("sample.interval=1000\nsample.interval=1000000\n");
  EXPECT_THROW(converter.Convert(0, &changed), ProfError);
  // Replaced by something that does not even start with a header.
  MemoryStream scan2("sample.interval=1000\n\"f\" \n");
  std::vector<RprofInput> inputs2{RprofInput{"y", "y", ScanRprof(&scan2, "y")}};
  RprofConverter converter2(&builder, inputs2, &warnings, RprofOptions());
  MemoryStream replaced("\"f\" \"g\" \"h\" \"i\" \"j\" \"k\" \n");
  EXPECT_THROW(converter2.Convert(0, &replaced), ProfError);
}

}  // namespace
}  // namespace rprof_converter_test
}  // namespace proftools
