#include "common/folded/folded_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common/folded/folded_syntax.h"
#include "common/folded/folded_units.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/model/checker.h"
#include "common/model/frame_kind.h"
#include "common/model/sink.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace folded_reader_test {  // a namespace of its own: the tests build as one unit
namespace {

class Recorder : public DiagnosticHandler {
 public:
  void Warning(const Diagnostic& d) override { warnings.push_back(d.Format()); }
  std::vector<std::string> warnings;
};

Input Open(const std::string& bytes, const std::string& name = "in.txt") {
  return OpenInputStream(std::make_unique<MemoryStream>(bytes), name);
}

// The profile the reader makes of `inputs` (checked: a violation throws).
Profile Read(const std::vector<std::string>& inputs, FoldedOptions options = {},
             Recorder* warnings = nullptr) {
  Recorder ignored;
  FoldedReader reader(options, warnings != nullptr ? warnings : &ignored);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "in" + std::to_string(i + 1) + ".txt";
    Input input = Open(inputs[i], name);
    reader.Add(input, name);
  }
  ProfileBuilder builder;
  DiagnosticHandler bugs;
  CheckingSink checked(&builder, &bugs, "test");
  reader.Finish(&checked);
  return builder.Take();
}

Profile Read(const std::string& input, FoldedOptions options = {}, Recorder* warnings = nullptr) {
  return Read(std::vector<std::string>{input}, options, warnings);
}

// Each sample as `labels|frame;frame;... values`, root first, sorted; a frame is its function
// name, `@file:line` when it has them, `{mapping}` when it has one, and a location's inlined
// lines follow its outermost with `+`.
std::vector<std::string> Samples(const Profile& p) {
  std::vector<std::string> out;
  for (const Sample& s : p.samples) {
    std::string text;
    for (const Label& l : s.labels) {
      text += l.key + "=" + (l.is_num ? std::to_string(l.num) : l.str) + " ";
    }
    text += "|";
    const Stack* stack = p.defs.stacks.Find(s.stack_id);
    for (size_t i = stack->location_ids.size(); i-- > 0;) {
      const Location* loc = p.defs.locations.Find(stack->location_ids[i]);
      if (i + 1 < stack->location_ids.size()) text += ";";
      for (size_t j = loc->lines.size(); j-- > 0;) {
        const Function* f = p.defs.functions.Find(loc->lines[j].function_id);
        if (j + 1 < loc->lines.size()) text += "+";
        text += f->name;
        if (!f->file.empty()) text += "@" + f->file + ":" + std::to_string(loc->lines[j].line);
      }
      if (loc->mapping_id != 0) text += "{" + p.defs.mappings.Find(loc->mapping_id)->file + "}";
    }
    for (int64_t v : s.values) text += " " + std::to_string(v);
    out.push_back(text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// FoldedOptions as folded2prof --strict sets them: a line that does not parse is an error.
FoldedOptions Strict() {
  FoldedOptions options;
  options.skip_invalid = false;
  return options;
}

// The message of the error reading `input` gives (by default under --strict).
std::string Error(const std::string& input, FoldedOptions options = Strict()) {
  try {
    Read(input, options);
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().rule, Rule::kInput);
    return e.diagnostic().Format();
  }
  return "no error";
}

using Strings = std::vector<std::string>;

TEST(FoldedReader, StacksRootFirstWithTheirCounts) {
  const Profile p = Read("main;parse;lex 3\nmain;eval 2\n");
  EXPECT_EQ(Samples(p), (Strings{"|main;eval 2", "|main;parse;lex 3"}));
  ASSERT_EQ(p.header.types.size(), 1u);
  EXPECT_EQ(p.header.types[0], (ValueType{"samples", "count"}));
  ASSERT_EQ(p.header.sources.size(), 1u);
  EXPECT_EQ(p.header.sources[0].type, "folded");
  EXPECT_EQ(p.header.sources[0].uri, "in1.txt");
}

TEST(FoldedReader, DuplicateStacksAddUp) {
  EXPECT_EQ(Samples(Read("a;b 1\na;c 5\na;b 2\n")), (Strings{"|a;b 3", "|a;c 5"}));
  EXPECT_EQ(Read("a;b 1\na;c 5\na;b 2\n").samples.size(), 2u);
}

TEST(FoldedReader, TheOrderOfLinesDoesNotMatter) {
  StringSink one, two;
  for (auto [text, out] : {std::pair<std::string, StringSink*>{"x;y 1\na;b 2\na 3\n", &one},
                           {"a 3\na;b 2\nx;y 1\n", &two}}) {
    FoldedReader reader({}, nullptr);
    Input input = Open(text);
    reader.Add(input, "f");
    CanonicalWriter writer(out);
    reader.Finish(&writer);
  }
  EXPECT_EQ(one.text(), two.text());
}

TEST(FoldedReader, SeveralInputsAreOneProfileWithASourceEach) {
  const Profile p = Read(Strings{"a;b 1\n", "a;b 2\n"});
  ASSERT_EQ(p.header.sources.size(), 2u);
  EXPECT_EQ(p.header.sources[1].uri, "in2.txt");
  ASSERT_EQ(p.samples.size(), 2u);
  EXPECT_NE(p.samples[0].source_id, p.samples[1].source_id);
  EXPECT_EQ(p.samples[0].stack_id, p.samples[1].stack_id);
}

TEST(FoldedReader, TypeOption) {
  FoldedOptions options;
  options.type = ParseFoldedType("cpu/nanoseconds");
  EXPECT_EQ(Read("a 1\n", options).header.types[0], (ValueType{"cpu", "nanoseconds"}));
  EXPECT_THROW(ParseFoldedType("cpu"), UsageError);
  EXPECT_THROW(ParseFoldedType("/ns"), UsageError);
}

TEST(FoldedReader, DecimalMillisecondsKeptExactlyAsMicroseconds) {
  FoldedOptions options;
  options.type = {"wall", "milliseconds"};
  Recorder warnings;
  const Profile p = Read("a;b 1.5\na;c 2\na;b 0.125\n", options, &warnings);
  EXPECT_EQ(p.header.types[0], (ValueType{"wall", "microseconds"}));
  EXPECT_EQ(Samples(p), (Strings{"|a;b 1625", "|a;c 2000"}));
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].find("kept exactly as microseconds"), std::string::npos);
}

TEST(FoldedReader, DecimalCountsAreRoundedWithAWarning) {
  Recorder warnings;
  const Profile p = Read("a 1.5\nb 2.25\nb 0.25\n", {}, &warnings);
  EXPECT_EQ(p.header.types[0], (ValueType{"samples", "count"}));  // no unit it does not have
  EXPECT_EQ(Samples(p), (Strings{"|a 2", "|b 3"}));
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].find("rounded to whole count"), std::string::npos);
}

TEST(FoldedUnits, CoarsestFinerUnit) {
  EXPECT_EQ(UnitForDecimals("seconds", 3).unit, "milliseconds");
  EXPECT_EQ(UnitForDecimals("s", 4).unit, "microseconds");
  EXPECT_EQ(UnitForDecimals("s", 4).multiply, 100);
  EXPECT_EQ(UnitForDecimals("minutes", 1).unit, "seconds");
  EXPECT_EQ(UnitForDecimals("minutes", 1).multiply, 6);
  EXPECT_EQ(UnitForDecimals("nanoseconds", 1).divide, 10);
  EXPECT_EQ(UnitForDecimals("bytes", 0).note, "");
}

TEST(FoldedReader, TwoValuesAreBeforeAndAfter) {
  FoldedOptions options;
  options.type = {"cpu", "ms"};
  const Profile p = Read("a;b 3 5\na;c 0 2\n", options);
  EXPECT_EQ(p.header.types, (std::vector<ValueType>{{"before", "ms"}, {"after", "ms"}}));
  EXPECT_EQ(p.header.default_type, "after");
  EXPECT_EQ(Samples(p), (Strings{"|a;b 3 5", "|a;c 0 2"}));
}

TEST(FoldedReader, TheFirstLineDecidesTheValueCount) {
  EXPECT_EQ(Error("a;b 3 5\na;c 2\n"),
            "in1.txt:2: two values expected (`stack BEFORE AFTER`, as the input's first line "
            "has) (not folded stacks: `frame;frame;... COUNT`)");
  // After a line of one value, a frame may end with a number.
  EXPECT_EQ(Samples(Read("a;c 2\na;b 3 5\n")), (Strings{"|a;b 3 5", "|a;c 2"}));
  EXPECT_THROW(Read(Strings{"a 1\n", "a 1 2\n"}), ProfError);  // inputs must agree always
}

TEST(FoldedReader, AnnotationsBecomeKinds) {
  const Profile p = Read("java;Interp_[0];C1_[1];jit_[j];sys_[k];wake_[w] 1\n");
  EXPECT_EQ(Samples(p), (Strings{"|java;Interp{[interpreted]};C1{[jit]};jit{[jit]};"
                                 "sys{[kernel.kallsyms]};wake{[waker]} 1"}));
  for (const Mapping& mapping : p.defs.mappings.items()) {
    EXPECT_NE(CodeKindOfMapping(mapping.file), CodeKind::kNative);
  }
}

TEST(FoldedReader, InlinedFramesAreLinesOfTheirCallersLocation) {
  const Profile p = Read("main;outer_[j];mid_[i];inner_[i];leaf 1\n");
  EXPECT_EQ(Samples(p), (Strings{"|main;outer+mid+inner{[jit]};leaf 1"}));
  // Innermost first in the location, as frame_kind.h keeps inlined calls.
  const Stack* stack = p.defs.stacks.Find(p.samples[0].stack_id);
  ASSERT_EQ(stack->location_ids.size(), 3u);
  const Location* loc = p.defs.locations.Find(stack->location_ids[1]);
  ASSERT_EQ(loc->lines.size(), 3u);
  EXPECT_EQ(p.defs.functions.Find(loc->lines[0].function_id)->name, "inner");
}

TEST(FoldedReader, KeepAnnotationsKeepsThemAsText) {
  FoldedOptions options;
  options.keep_annotations = true;
  EXPECT_EQ(Samples(Read("a_[k];b_[i] 1\n", options)), (Strings{"|a_[k];b_[i] 1"}));
}

TEST(FoldedReader, ThreadRootStackcollapsePerf) {
  FoldedOptions options;
  options.thread_root = true;
  EXPECT_EQ(Samples(Read("java-1234/1240;main 1\nperf-?/77;x 2\nsshd-99;y 3\nswapper;idle 4\n"
                         "my-app-5;z 5\n",
                         options)),
            (Strings{"comm=java pid=1234 tid=1240 |main 1", "comm=my-app pid=5 |z 5",
                     "comm=perf tid=77 |x 2", "comm=sshd pid=99 |y 3", "comm=swapper |idle 4"}));
  EXPECT_EQ(Samples(Read("kworker-?;k 1\n", options)), (Strings{"comm=kworker |k 1"}));
}

TEST(FoldedReader, ThreadRootAsyncProfilerAndPySpy) {
  FoldedOptions options;
  options.thread_root = true;
  EXPECT_EQ(Samples(Read("[main tid=42];Foo.run 3\n", options)),
            (Strings{"thread=main tid=42 |Foo.run 3"}));
  EXPECT_EQ(Samples(Read("process 42:\"python app.py\";thread (0x7F3A);f (a.py:3) 2\n", options)),
            (Strings{"comm=python app.py pid=42 thread=0x7F3A |f@a.py:3 2"}));
  EXPECT_EQ(Samples(Read("thread (4242);f (a.py:3) 2\n", options)),
            (Strings{"tid=4242 |f@a.py:3 2"}));
  // Without the option a root is a frame.
  EXPECT_EQ(Samples(Read("[main tid=42];Foo.run 3\n")), (Strings{"|[main tid=42];Foo.run 3"}));
}

TEST(FoldedReader, PySpyFramesSplitUnlessPlain) {
  const std::string text = "<module> (/app/run.py:196);work (run.py:12) 5\n";
  EXPECT_EQ(Samples(Read(text)), (Strings{"|<module>@/app/run.py:196;work@run.py:12 5"}));
  FoldedOptions plain;
  plain.plain_frames = true;
  EXPECT_EQ(Samples(Read(text, plain)),
            (Strings{"|<module> (/app/run.py:196);work (run.py:12) 5"}));
  // C++ argument lists are not py-spy frames.
  EXPECT_EQ(Samples(Read("f(int) const;g (x) 1\n")), (Strings{"|f(int) const;g (x) 1"}));
}

TEST(FoldedReader, LineEndsBomAndBlankAndCommentLines) {
  EXPECT_EQ(Samples(Read("\xef\xbb\xbf# made by hand\r\n\r\na;b 1\r\n   \n# x\na;b 2")),
            (Strings{"|a;b 3"}));
  // A `#` line that is a stack is one (flamegraph.pl reads it so; prof-text --folded writes
  // frames starting with `#` as they are).
  EXPECT_EQ(Samples(Read("#1;f 2\n")), (Strings{"|#1;f 2"}));
}

TEST(FoldedReader, Utf16WithBomIsConverted) {
  const std::string text = "a;caf\xc3\xa9 7\n";
  std::string le = "\xff\xfe", be = "\xfe\xff";
  // ASCII, then U+00E9 as one unit.
  for (char c : std::string("a;caf")) {
    le += c, le += '\0';
    be += '\0', be += c;
  }
  le += "\xe9";
  le += '\0';
  be += '\0';
  be += "\xe9";
  for (char c : std::string(" 7\n")) {
    le += c, le += '\0';
    be += '\0', be += c;
  }
  EXPECT_EQ(Samples(Read(le)), (Strings{"|a;caf\xc3\xa9 7"}));
  EXPECT_EQ(Samples(Read(be)), (Strings{"|a;caf\xc3\xa9 7"}));
}

TEST(FoldedReader, SpacesInsideFramesTheValueIsAfterTheLastSpace) {
  EXPECT_EQ(Samples(Read("V8 Worker;operator new (unsigned long) 4\n")),
            (Strings{"|V8 Worker;operator new (unsigned long) 4"}));
  // One blank separates the value; a frame keeps its own trailing blanks.
  EXPECT_EQ(Samples(Read("a;b   4  \n")), (Strings{"|a;b   4"}));
}

TEST(FoldedReader, EscapesOfPropTextFoldedAreUndone) {
  const Profile p = Read("a\\x3bb;c\\\\d;e\\nf\\t\\r;g\\x01;h\\q\\x 1\n");
  EXPECT_EQ(Samples(p), (Strings{std::string("|a;b;c\\d;e\nf\t\r;g\x01;h\\q\\x 1")}));
  FoldedOptions raw;
  raw.raw_names = true;
  EXPECT_EQ(Samples(Read("a\\x3bb 1\n", raw)), (Strings{"|a\\x3bb 1"}));
}

TEST(FoldedReader, InvalidLinesAreFileLineErrors) {
  EXPECT_EQ(Error("a;b 1\na;b\n"),
            "in1.txt:2: no value at the end of the line (not folded stacks: "
            "`frame;frame;... COUNT`)");
  EXPECT_EQ(Error("a;b 1\n{\"json\": 1}\n").substr(0, 10), "in1.txt:2:");
  EXPECT_EQ(Error("{\"traceEvents\": []}\n").substr(0, 10), "in1.txt:1:");
  EXPECT_EQ(Error("a;;b 1\n").substr(0, 31), "in1.txt:1: an empty frame (`;;`");
  EXPECT_EQ(Error("5\n").substr(0, 10), "in1.txt:1:");
}

TEST(FoldedReader, NegativeAndHugeValuesAreErrors) {
  EXPECT_EQ(Error("a;b -3\n").substr(0, 53),
            "in1.txt:1: a negative value: counts are never below 0");
  EXPECT_NE(Error("a;b 99999999999999999999\n").find("too large"), std::string::npos);
  EXPECT_NE(Error("a;b 1e5\n").find("in1.txt:1:"), std::string::npos);
}

TEST(FoldedReader, SumsSaturateWithAWarning) {
  Recorder warnings;
  const Profile p = Read("a 9223372036854775807\na 1\n", {}, &warnings);
  EXPECT_EQ(p.samples[0].values[0], INT64_MAX);
  ASSERT_EQ(warnings.warnings.size(), 1u);
}

// The default, as flamegraph.pl ignores such lines (issue 43).
TEST(FoldedReader, InvalidLinesAreSkippedAndCountedInOneWarning) {
  Recorder warnings;
  const Profile p = Read("a 1\nnot a line\na 2\nx;y -1\nnot a line\n", {}, &warnings);
  EXPECT_EQ(Samples(p), (Strings{"|a 3"}));
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_EQ(warnings.warnings[0].substr(0, 42), "in1.txt:2: 3 lines skipped that are not fo");
}

TEST(FoldedReader, BinaryInputIsAnError) {
  EXPECT_EQ(Error(std::string("a;b 1\nx\0y 2\n", 12)),
            "in1.txt:2: a NUL byte (column 2): binary data, not folded stacks");
  FoldedOptions options;
  options.skip_invalid = true;
  EXPECT_THROW(Read(std::string("\x7f"
                                "ELF\0\0",
                                6),
                    options),
               ProfError);
}

TEST(FoldedReader, ProfTextIsRefused) {
  EXPECT_EQ(Error("proftext 1.0\ntype samples count\n"),
            "in1.txt: is already a prof text profile (read it with prof-text)");
}

TEST(FoldedReader, EmptyInputIsAnErrorUnlessAllowed) {
  EXPECT_NE(Error("# nothing\n\n").find("no folded stacks"), std::string::npos);
  FoldedOptions options;
  options.allow_empty = true;
  EXPECT_EQ(Read("", options).samples.size(), 0u);
}

TEST(FoldedReader, AHugeLineIsAnErrorNotAHang) {
  FoldedOptions options;
  options.max_line = 1 << 20;
  EXPECT_EQ(Error(std::string(3 << 20, 'a'), options),
            "in1.txt:1: a line longer than 1 MiB: not folded stacks");
}

// A 100 MB line without a newline, streamed: the reader stops at its cap (16 MiB) with an error
// instead of holding the line.
class EndlessLine : public ByteStream {
 public:
  size_t Read(char* buffer, size_t capacity) override {
    const size_t n = std::min(capacity, left_);
    std::fill(buffer, buffer + n, 'f');
    left_ -= n;
    return n;
  }
  size_t left_ = size_t{100} << 20;
};

TEST(FoldedReader, AHundredMegabyteLineStopsAtTheCap) {
  Input input = OpenInputStream(std::make_unique<EndlessLine>(), "big.txt");
  FoldedReader reader({}, nullptr);
  try {
    reader.Add(input, "big.txt");
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(), "big.txt:1: a line longer than 16 MiB: not folded stacks");
  }
}

TEST(FoldedSniffer, FoldedLinesArePlausible) {
  EXPECT_EQ(kFoldedReader.sniff("main;a;b 10\nmain;c 3\n", true), kPlausible);
  EXPECT_EQ(kFoldedReader.sniff("# comment\n\nmain 1.5\n", true), kPlausible);
  EXPECT_EQ(kFoldedReader.sniff("proftext 1.0\n", true), kNotMine);
  EXPECT_EQ(kFoldedReader.sniff("{\"a\": 1}\n", true), kNotMine);
  EXPECT_EQ(kFoldedReader.sniff("perf 123 [000] 1.0: 1 cycles:\n\tffff f (k)\n", true), kNotMine);
  EXPECT_EQ(kFoldedReader.sniff("", true), kNotMine);
  EXPECT_EQ(kFoldedReader.sniff("a;b 1\n", false), kNotMine);
  EXPECT_STREQ(kFoldedReader.name, "folded");
  EXPECT_STREQ(kFoldedReader.converter, "folded2prof");
  EXPECT_EQ(kFoldedReader.shape, ReaderShape::kStreaming);
}

TEST(FoldedSniffer, ALineCutByTheWindowDoesNotCount) {
  std::string head = "main;a 1\n";
  head += "main;" + std::string(4096 - head.size() - 5, 'x');  // cut: no value yet
  ASSERT_EQ(head.size(), 4096u);
  EXPECT_EQ(kFoldedReader.sniff(head, true), kPlausible);
  // The same bytes as a whole input are not folded stacks.
  EXPECT_EQ(kFoldedReader.sniff(head.substr(0, 4000), true), kNotMine);
}

TEST(FoldedReaderSpec, ReadsWithDefaultOptions) {
  Input input = Open("a;b_[k] 2\n");
  ReadContext context;
  context.uri = "u";
  ProfileBuilder builder;
  kFoldedReader.read(input, context, &builder);
  const Profile p = builder.Take();
  EXPECT_EQ(Samples(p), (Strings{"|a;b{[kernel.kallsyms]} 2"}));
  EXPECT_EQ(p.header.sources[0].uri, "u");
}

}  // namespace
}  // namespace folded_reader_test
}  // namespace proftools
