// perf script text -> profile, through the same two passes and checker perf2prof uses.
#include "common/perf/perf_converter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/io/spool.h"
#include "common/model/checker.h"
#include "common/model/sink.h"
#include "common/report/text/folded_view.h"
#include "common/text/text_writer.h"
#include "tests/test_util.h"

namespace proftools {
namespace perf_converter_test {  // a namespace of its own: the tests build as one unit
namespace {

struct Converted {
  Profile profile;
  std::vector<Diagnostic> warnings;
};

// Scans `text` while spooling it (as for a pipe), then converts the spooled copy.
Converted Convert(const std::string& text, bool strict = false, bool off_cpu = false) {
  SpoolFile spool;
  MemoryStream scan(text);
  std::vector<PerfInput> inputs{{"in.txt", "in.txt", ScanPerfScript(&scan, "in.txt", spool.fd())}};
  ProfileBuilder builder;
  DiagnosticHandler throwing;
  CheckingSink checked(&builder, &throwing, "test");
  testing::CollectingHandler warnings;
  PerfOptions options;
  options.strict = strict;
  options.off_cpu = off_cpu;
  PerfConverter converter(&checked, inputs, &warnings, options);
  std::unique_ptr<ByteStream> again = spool.Reopen("in.txt");
  converter.Convert(0, again.get());
  converter.Finish();
  return Converted{builder.Take(), warnings.warnings};
}

// `text` scanned and converted with `options` into canonical prof text.
std::string ConvertToText(const std::string& text, const PerfOptions& options) {
  MemoryStream scan(text);
  std::vector<PerfInput> inputs{{"in.txt", "in.txt", ScanPerfScript(&scan, "in.txt")}};
  StringSink out;
  CanonicalWriter writer(&out);
  DiagnosticHandler throwing;
  CheckingSink checked(&writer, &throwing, "test");
  testing::CollectingHandler warnings;
  PerfConverter converter(&checked, inputs, &warnings, options);
  MemoryStream again(text);
  converter.Convert(0, &again);
  converter.Finish();
  std::string result = out.text();
  for (const Diagnostic& w : warnings.warnings) {
    result += "warning: " + std::to_string(w.line) + " " + w.message + "\n";
  }
  return result;
}

// The function names of a sample's stack, leaf first.
std::vector<std::string> Names(const Profile& p, const Sample& s) {
  std::vector<std::string> names;
  for (uint64_t loc : p.defs.stacks.Find(s.stack_id)->location_ids) {
    const Location* l = p.defs.locations.Find(loc);
    names.push_back(l->lines.empty() ? "?" : p.defs.functions.Find(l->lines[0].function_id)->name);
  }
  return names;
}

const char kTwoEvents[] =
    "# captured on: Thu Aug 17 14:14:43 2017\n"
    "# hostname : box\n"
    "# hostname : again\n"
    "# cmdline : /usr/bin/perf record -g\n"
    "a 7 [001] 1.000000: 100 cycles: \n"
    "\t1 f+0x1 (/x)\n"
    "\t2 main+0x2 (/x)\n"
    "\n"
    "a 7 [001] 1.500000: instructions: \n"
    "\t3 g (/x)\n"
    "\n"
    "a 7 [000] 2.000000: 300 cycles: \n"
    "\t1 f+0x1 (/x)\n"
    "\t2 main+0x2 (/x)\n";  // no final blank line: the sample still counts

TEST(PerfConverterTest, TypesPerEventAndValues) {
  const Converted c = Convert(kTwoEvents);
  const ProfileHeader& h = c.profile.header;
  ASSERT_EQ(h.types.size(), 4u);
  EXPECT_EQ(h.types[0], (ValueType{"cycles_samples", "count"}));
  EXPECT_EQ(h.types[1], (ValueType{"cycles", "count"}));
  EXPECT_EQ(h.types[2], (ValueType{"instructions_samples", "count"}));
  EXPECT_EQ(h.types[3], (ValueType{"instructions", "count"}));
  EXPECT_EQ(h.default_type, "cycles");
  ASSERT_EQ(h.sources.size(), 1u);
  EXPECT_EQ(h.sources[0].type, "perf");
  EXPECT_EQ(h.sources[0].time_nanos, 1502979283000000000);
  // One recording: its header's keys are plain (KEY@SOURCE only where recordings differ).
  EXPECT_EQ(h.meta, (std::vector<MetaEntry>{{"perf.cmdline", "/usr/bin/perf record -g"},
                                            {"perf.hostname", "box"}}));
  const std::vector<Sample>& s = c.profile.samples;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].values, (std::vector<int64_t>{1, 100, 0, 0}));
  EXPECT_EQ(s[1].values, (std::vector<int64_t>{0, 0, 1, 1}));  // no period: 1
  EXPECT_EQ(s[2].values, (std::vector<int64_t>{1, 300, 0, 0}));
  EXPECT_EQ(s[0].stack_id, s[2].stack_id);  // same frames, one stack
  EXPECT_EQ(Names(c.profile, s[0]), (std::vector<std::string>{"f", "main"}));
  EXPECT_EQ(s[2].time_nanos, 2000000000);
  EXPECT_EQ(s[2].labels, (std::vector<Label>{Label::String("comm", "a"), Label::Number("tid", 7),
                                             Label::Number("cpu", 0)}));
  EXPECT_TRUE(c.warnings.empty());
}

// perf writes `x` and `x_samples` as events; `x`'s count type would be `x_samples` too.
TEST(PerfConverterTest, TypeNamesNeverCollide) {
  const Converted c = Convert(
      "a 1 1.0: 5 x: \n\t1 f (/x)\n\n"
      "a 1 2.0: 7 x_samples: \n\t1 f (/x)\n\n"
      "a 1 3.0: 9 x_samples.2: \n\t1 f (/x)\n\n");
  const std::vector<ValueType>& t = c.profile.header.types;
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].type, "x_samples");
  EXPECT_EQ(t[1].type, "x");
  EXPECT_EQ(t[2].type, "x_samples_samples");
  EXPECT_EQ(t[3].type, "x_samples.2");
  EXPECT_EQ(t[4].type, "x_samples.2_samples");
  EXPECT_EQ(t[5].type, "x_samples.2.2");
  ASSERT_EQ(c.profile.samples.size(), 3u);
  EXPECT_EQ(c.profile.samples[1].values, (std::vector<int64_t>{0, 0, 1, 7, 0, 0}));
  EXPECT_EQ(c.profile.samples[2].values, (std::vector<int64_t>{0, 0, 0, 0, 1, 9}));
}

// Nanoseconds since 1970 end in 2262: a later capture time is dropped with a warning.
TEST(PerfConverterTest, CaptureTimePast2262HasNoTimeAndWarns) {
  for (const char* year : {"2263", "2300", "9999"}) {
    const Converted c = Convert(std::string("# captured on: Thu Aug 17 14:14:43 ") + year +
                                "\na 1 1.0: 5 x: \n\t1 f (/x)\n");
    ASSERT_EQ(c.profile.header.sources.size(), 1u);
    EXPECT_FALSE(c.profile.header.sources[0].time_nanos.has_value()) << year;
    ASSERT_EQ(c.warnings.size(), 1u) << year;
    EXPECT_EQ(c.warnings[0].line, 1u);
    EXPECT_NE(c.warnings[0].message.find("2262"), std::string::npos);
  }
  const Converted last = Convert("# captured on: Fri Apr 11 23:47:16 2262\na 1 1.0: 5 x: \n");
  EXPECT_EQ(last.profile.header.sources[0].time_nanos, 9223372036000000000);
  EXPECT_TRUE(last.warnings.empty());
}

TEST(PerfConverterTest, CpuClockIsNanoseconds) {
  const Converted c = Convert("a 1 1.0: 250000 cpu-clock:u: \n\t1 f (/x)\n\n");
  EXPECT_EQ(c.profile.header.types[1], (ValueType{"cpu-clock", "nanoseconds"}));
  ASSERT_EQ(c.profile.header.meta.size(), 1u);
  EXPECT_EQ(c.profile.header.meta[0].key, "perf.event.cpu-clock");
  EXPECT_EQ(c.profile.header.meta[0].value, "cpu-clock:u");
}

TEST(PerfConverterTest, EventsDifferingOnlyInModifiersKeepThem) {
  const Converted c =
      Convert("a 1 1.0: 5 cycles:u: \n\t1 f (/x)\n\na 1 2.0: 5 cycles:k: \n\t1 f (/x)\n\n");
  ASSERT_EQ(c.profile.header.types.size(), 4u);
  EXPECT_EQ(c.profile.header.types[1].type, "cycles:u");
  EXPECT_EQ(c.profile.header.types[3].type, "cycles:k");
  EXPECT_TRUE(c.profile.header.meta.empty());
}

TEST(PerfConverterTest, DefaultTypeIsTheEventRecordedFirstElseTheMostSampled) {
  const std::string samples =
      "a 1 1.0: 1 page-faults: \n\t1 f (/x)\n\n"
      "a 1 2.0: 9 cycles:P: \n\t1 f (/x)\n\n"
      "a 1 3.0: 9 cycles:P: \n\t1 f (/x)\n\n";
  EXPECT_EQ(Convert(samples).profile.header.default_type, "cycles");
  const std::string recorded =
      "# event : name = page-faults, , id = { 1 }\n# event : name = cycles:P, , id = { 2 }\n";
  EXPECT_EQ(Convert(recorded + samples).profile.header.default_type, "page-faults");
  // An event recorded first but without samples is passed over.
  EXPECT_EQ(Convert("# event : name = instructions, , id = { 3 }\n" + samples)
                .profile.header.default_type,
            "cycles");
}

TEST(PerfConverterTest, InlinedFramesAreLinesOfOneLocation) {
  const Converted c = Convert(
      "prog 1 1.0: 1 cpu-clock: \n"
      "\t1247 inner+0x37 (inlined)\n"
      "\t1247 middle+0x37 (inlined)\n"
      "\t1247 compute+0x37 (/x)\n"
      "\t10f7 main+0x27 (/x)\n"
      "\t27304 start_impl+0x84 (inlined)\n"
      "\t1140 _start+0x20 (/x)\n\n");
  ASSERT_EQ(c.profile.samples.size(), 1u);
  const Stack* stack = c.profile.defs.stacks.Find(c.profile.samples[0].stack_id);
  ASSERT_EQ(stack->location_ids.size(), 4u);
  const Location* first = c.profile.defs.locations.Find(stack->location_ids[0]);
  ASSERT_EQ(first->lines.size(), 3u);
  EXPECT_EQ(c.profile.defs.functions.Find(first->lines[0].function_id)->name, "inner");
  EXPECT_EQ(c.profile.defs.functions.Find(first->lines[2].function_id)->name, "compute");
  EXPECT_EQ(first->address, 0x1247u);
  EXPECT_EQ(c.profile.defs.mappings.Find(first->mapping_id)->file, "/x");
  // Inlined alone: its own location, without a mapping (perf named no object).
  const Location* alone = c.profile.defs.locations.Find(stack->location_ids[2]);
  EXPECT_EQ(alone->mapping_id, 0u);
  ASSERT_EQ(alone->lines.size(), 1u);
  for (uint64_t id = 1; c.profile.defs.mappings.Find(id) != nullptr; ++id) {
    EXPECT_NE(c.profile.defs.mappings.Find(id)->file, "inlined");
  }
}

TEST(PerfConverterTest, MmapRecordsGiveRealMappings) {
  const Converted c = Convert(
      "prog 7 1.0: PERF_RECORD_MMAP2 7/7: [0x7f0000001000(0x2000) @ 0x1000 <abcd>]: r-xp /x\n"
      "prog 7 2.0: 1 cpu-clock: \n\t1234 f+0x4 (/x)\n\t2000 g+0x0 (/y)\n\n");
  ASSERT_EQ(c.profile.samples.size(), 1u);
  const Stack* stack = c.profile.defs.stacks.Find(c.profile.samples[0].stack_id);
  const Location* l = c.profile.defs.locations.Find(stack->location_ids[0]);
  EXPECT_EQ(l->address, 0x7f0000001234u);
  const Mapping* m = c.profile.defs.mappings.Find(l->mapping_id);
  EXPECT_EQ(m->start, 0x7f0000001000u);
  EXPECT_EQ(m->limit, 0x7f0000003000u);
  EXPECT_EQ(m->offset, 0x1000u);
  EXPECT_EQ(m->build_id, "abcd");
  // No mmap record for /y: today's mapping, named after the DSO.
  const Location* y = c.profile.defs.locations.Find(stack->location_ids[1]);
  EXPECT_EQ(y->address, 0x2000u);
  EXPECT_EQ(c.profile.defs.mappings.Find(y->mapping_id)->start, 0u);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(PerfConverterTest, OffCpuIntervalsFromSchedSwitch) {
  const std::string text =
      "p 5 [000] 1.000000: sched:sched_switch: prev_comm=p prev_pid=5 prev_prio=120 "
      "prev_state=D ==> next_comm=q next_pid=6 next_prio=120\n\t1 sleep (/x)\n\n"
      "q 6 [000] 1.250000: sched:sched_switch: prev_comm=q prev_pid=6 prev_prio=120 "
      "prev_state=S ==> next_comm=p next_pid=5 next_prio=120\n\t2 wait (/x)\n\n"
      "p 5 [000] 1.500000: 1000 cpu-clock: \n\t3 run (/x)\n\n";
  const Converted plain = Convert(text);
  EXPECT_EQ(plain.profile.samples.size(), 3u);
  const Converted c = Convert(text, false, true);
  ASSERT_EQ(c.profile.header.types.back(), (ValueType{"off-cpu", "nanoseconds"}));
  const size_t off = c.profile.header.types.size() - 1;
  std::vector<const Sample*> intervals;
  for (const Sample& s : c.profile.samples) {
    if (s.values[off] != 0) intervals.push_back(&s);
  }
  ASSERT_EQ(intervals.size(), 2u);
  // p: switched out at 1.0, back in at 1.25 (q's switch names it next_pid).
  EXPECT_EQ(intervals[0]->time_nanos, 1000000000);
  EXPECT_EQ(intervals[0]->duration_nanos, 250000000);
  EXPECT_EQ(intervals[0]->values[off], 250000000);
  EXPECT_EQ(Names(c.profile, *intervals[0]), (std::vector<std::string>{"sleep"}));
  EXPECT_EQ(intervals[0]->labels.back(), Label::String("state", "D"));
  // q: still out at the end of the input, 1.5.
  EXPECT_EQ(intervals[1]->duration_nanos, 250000000);
  EXPECT_EQ(intervals[1]->labels.back(), Label::String("state", "S"));
}

TEST(PerfConverterTest, UnknownFramesKeepTheirDsoAndAddress) {
  const Converted c = Convert("a 1 1.0: 1 cycles: \n\t9788d [unknown] (/lib/libc.so.6)\n\n");
  const Location* l = c.profile.defs.locations.Find(1);
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->lines.empty());
  EXPECT_EQ(l->address, 0x9788du);
  EXPECT_EQ(c.profile.defs.mappings.Find(l->mapping_id)->file, "/lib/libc.so.6");
}

TEST(PerfConverterTest, JitInlineChainsBecomeInlinedLines) {
  const Converted c =
      Convert("java 1 1.0: 1 cycles: \n\t7f1 LA;::outer->LB;::inner+0x0 (/tmp/perf-1.map)\n\n");
  const Location* l = c.profile.defs.locations.Find(1);
  ASSERT_EQ(l->lines.size(), 2u);
  EXPECT_EQ(c.profile.defs.functions.Find(l->lines[0].function_id)->name, "LB;::inner");
  EXPECT_EQ(c.profile.defs.functions.Find(l->lines[1].function_id)->name, "LA;::outer");
  // Outside a JIT map, `->` belongs to the name.
  const Converted d = Convert("a 1 1.0: 1 cycles: \n\t1 Ptr::operator-> (/x)\n\n");
  EXPECT_EQ(d.profile.defs.functions.Find(1)->name, "Ptr::operator->");
}

TEST(PerfConverterTest, UnknownLinesWarnOnceAndNeverJoinASample) {
  const Converted c = Convert(
      "a 1 1.0: 1 cycles: \n\t1 f (/x)\nGARBAGE\n\t2 main (/x)\n\n\t3 orphan (/x)\nmore junk\n");
  ASSERT_EQ(c.profile.samples.size(), 1u);
  EXPECT_EQ(Names(c.profile, c.profile.samples[0]), (std::vector<std::string>{"f", "main"}));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0].line, 3u);
  EXPECT_NE(c.warnings[0].message.find("GARBAGE"), std::string::npos);
  EXPECT_NE(c.warnings[0].message.find("2 more"), std::string::npos);
}

// The first pass takes tab-indented lines inside a sample for frames unread; a header written
// that way is reported by the second pass, and its frames join no sample.
TEST(PerfConverterTest, TabIndentedHeaderInsideASampleIsReported) {
  const Converted c = Convert(
      "a 1 1.0: 1 cycles: \n\t1 f (/x)\n\tx 2 2.0: 1 other: \n\t2 g (/x)\n\na 1 3.0: 1 cycles: \n"
      "\t1 f (/x)\n\n");
  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_EQ(c.profile.header.types.size(), 2u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0].line, 3u);
  EXPECT_EQ(Names(c.profile, c.profile.samples[1]), (std::vector<std::string>{"f"}));
}

TEST(PerfConverterTest, StrictStopsAtTheFirstUnknownLine) {
  try {
    Convert("a 1 1.0: 1 cycles: \n\t1 f (/x)\nGARBAGE\n", true);
    FAIL() << "no error";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().line, 3u);
  }
}

TEST(PerfConverterTest, EmptyInputIsAnEmptyProfile) {
  const Converted c = Convert("");
  EXPECT_TRUE(c.profile.samples.empty());
  EXPECT_EQ(c.profile.header.types.size(), 1u);
}

TEST(PerfConverterTest, SamplesWithoutFramesHaveAnEmptyStack) {
  const Converted c = Convert("a 1 1.0: 1 cycles: \n\na 1 1.1: 1 cycles: \n\t1 f (/x)\n\n");
  ASSERT_EQ(c.profile.samples.size(), 2u);
  EXPECT_TRUE(c.profile.defs.stacks.Find(c.profile.samples[0].stack_id)->location_ids.empty());
}

// Frames that share their first bytes (the memo's index) but differ later stay apart, and long
// frame lines (past the memo) are found again too.
TEST(PerfConverterTest, SimilarFramesStayApart) {
  const std::string long_name(600, 'n');
  std::string text;
  for (int i = 0; i < 3; ++i) {
    text +=
        "a 1 1.0: 1 cycles: \n\t4005b1 some_function_a (/x)\n\t4005b1 some_function_b (/x)\n\t2 " +
        long_name + " (/x)\n\n";
  }
  const Converted c = Convert(text);
  ASSERT_EQ(c.profile.samples.size(), 3u);
  EXPECT_EQ(Names(c.profile, c.profile.samples[2]),
            (std::vector<std::string>{"some_function_a", "some_function_b", long_name}));
  EXPECT_EQ(c.profile.defs.locations.size(), 3u);
  EXPECT_EQ(c.profile.defs.stacks.size(), 1u);
}

// Reading on a thread of its own (large inputs) changes no byte of the profile, nor a warning:
// every kind of line, cut into blocks of every size.
TEST(PerfConverterTest, PipelinedReadingGivesTheSameProfile) {
  std::string text =
      "# captured on: Thu Aug 17 14:14:43 2017\n"
      "prog 7 1.0: PERF_RECORD_MMAP2 7/7: [0x7f0000001000(0x2000) @ 0x1000 <abcd>]: r-xp /x\n"
      "prog 7 2.0: 1 cpu-clock: \n\t1234 f+0x4 (/x)\n\t2000 g+0x0 (/y)\n\n"
      "prog 7 2.1: 1 cpu-clock: \n\t1247 inner+0x37 (inlined)\n\t1247 compute+0x37 (/x)\n"
      "  x.c:3\n\t10f7 main+0x27 (/x)\n\n"
      "p 5 [000] 3.000000: sched:sched_switch: prev_comm=p prev_pid=5 prev_prio=120 "
      "prev_state=D ==> next_comm=q next_pid=6 next_prio=120\n\t1 sleep (/x)\n\n"
      "not perf script\n"
      "q 6 [000] 3.5: 1000 cpu-clock: \n\t3 run (/x)\r\n\r\n";
  for (int i = 0; i < 50; ++i) {
    text += "a " + std::to_string(i % 4) + " 4." + std::to_string(i) + ": 1 cpu-clock: \n\t" +
            std::to_string(i % 7) + " f" + std::to_string(i % 5) + " (/z)\n\t9 main (/z)\n\n";
  }
  for (bool off_cpu : {false, true}) {
    PerfOptions sequential;
    sequential.off_cpu = off_cpu;
    sequential.pipeline_min_bytes = UINT64_MAX;
    const std::string expected = ConvertToText(text, sequential);
    ASSERT_NE(expected.find("warning: 16 not a line of perf script"), std::string::npos)
        << expected;
    for (size_t block : {size_t{1}, size_t{5}, size_t{100}, size_t{1} << 20}) {
      PerfOptions pipelined = sequential;
      pipelined.pipeline_min_bytes = 0;
      pipelined.pipeline_block_bytes = block;
      EXPECT_EQ(ConvertToText(text, pipelined), expected) << "block " << block;
    }
  }
}

// Memory grows with distinct frames and stacks: many samples of few stacks define few things.
TEST(PerfConverterTest, DefinitionsDoNotGrowWithSamples) {
  std::string text;
  for (int i = 0; i < 2000; ++i) {
    text += "a 1 1.0: 1 cycles: \n\t1 f (/x)\n\t" + std::to_string(2 + i % 3) + " main (/x)\n\n";
  }
  const Converted c = Convert(text);
  EXPECT_EQ(c.profile.samples.size(), 2000u);
  EXPECT_EQ(c.profile.defs.stacks.size(), 3u);
  EXPECT_EQ(c.profile.defs.locations.size(), 4u);
}

// The folded view: stackcollapse-perf.pl naming rules, annotations and root templates.
std::string Folded(const std::string& text, FoldedViewOptions options) {
  const Converted c = Convert(text);
  FoldedView view(options, "");
  EmitProfile(c.profile, view);
  StringSink out;
  view.Write(&out);
  return out.text();
}

TEST(FoldedViewTest, FlameGraphNames) {
  FoldedViewOptions o;
  o.flamegraph = true;
  EXPECT_EQ(Folded("java 5/6 1.0: 1 c: \n"
                   "\t1 Lio/Foo;.bar(Ljava/lang/String;)V (/tmp/perf-5.map)\n"
                   "\t2 a;b (/x)\n"
                   "\t3 [unknown] (/lib/libjvm.so)\n"
                   "\t4 net/http.(*Client).Do (/x)\n"
                   "\t5 ns::f<void (int)>(int) const (/x)\n\n",
                   o),
            "java;ns::f<void (int)>;net/http.(*Client).Do;[libjvm.so];a:b;io/Foo:.bar 1\n");
}

TEST(FoldedViewTest, RootsAnnotationsAddresses) {
  FoldedViewOptions o;
  o.flamegraph = true;
  o.root = "{comm}-{pid}/{tid}";
  o.annotate_kernel = o.annotate_jit = true;
  o.unknown_addresses = true;
  EXPECT_EQ(Folded("net io 2 9 1.0: 1 c: \n"
                   "\tffff81 do_syscall_64 ([kernel.kallsyms])\n"
                   "\t7f1 jitted (/tmp/jitted-1-2.so)\n"
                   "\t10 [unknown] ([unknown])\n\n",
                   o),
            "net_io_2-?/9;[unknown <10>];jitted_[j];do_syscall_64_[k] 1\n");
}

}  // namespace
}  // namespace perf_converter_test
}  // namespace proftools
