// Event names without modifiers, `# event :` lines, tracepoint arguments as labels, side-band
// records and the mappings they give, off-CPU intervals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/perf/perf_events.h"
#include "common/perf/perf_mappings.h"
#include "common/perf/perf_offcpu.h"
#include "common/perf/perf_records.h"
#include "common/perf/perf_tracepoint.h"

namespace proftools {
namespace perf_events_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(PerfEventNameTest, ModifiersSplitOff) {
  EXPECT_EQ(SplitPerfEvent("cpu-clock:ppp").base, "cpu-clock");
  EXPECT_EQ(SplitPerfEvent("cpu-clock:ppp").modifiers, "ppp");
  EXPECT_EQ(SplitPerfEvent("cycles:P").base, "cycles");
  EXPECT_EQ(SplitPerfEvent("cycles:u").modifiers, "u");
  EXPECT_EQ(SplitPerfEvent("cpu_core/cycles/P").base, "cpu_core/cycles");
  // A tracepoint's colon is part of its name; so is a suffix that is not all modifier letters.
  EXPECT_EQ(SplitPerfEvent("sched:sched_switch").base, "sched:sched_switch");
  EXPECT_EQ(SplitPerfEvent("sched:sched_switch").modifiers, "");
  EXPECT_EQ(SplitPerfEvent("page-faults").base, "page-faults");
  EXPECT_EQ(SplitPerfEvent(":u").base, ":u");
}

TEST(PerfEventNameTest, EventComment) {
  std::string name;
  ASSERT_TRUE(ParsePerfEventComment(
      "# event : name = cpu-clock:u, , id = { 256, 257 }, type = 1, size = 128", &name));
  EXPECT_EQ(name, "cpu-clock:u");
  EXPECT_FALSE(ParsePerfEventComment("# cmdline : /usr/bin/perf record", &name));
  EXPECT_FALSE(ParsePerfEventComment("# event : name = , id", &name));
}

TEST(PerfTracepointTest, ArgumentsBecomeLabels) {
  std::vector<Label> labels;
  AppendTracepointLabels(
      "prev_comm=Web Content prev_pid=26028 prev_prio=120 prev_state=S ==> next_comm=swapper/1 "
      "next_pid=0",
      &labels);
  EXPECT_EQ(labels, (std::vector<Label>{
                        Label::String("prev_comm", "Web Content"), Label::Number("prev_pid", 26028),
                        Label::Number("prev_prio", 120), Label::String("prev_state", "S"),
                        Label::String("next_comm", "swapper/1"), Label::Number("next_pid", 0)}));
  labels.clear();
  AppendTracepointLabels("comm=perf pid=7547 runtime=49524 [ns]", &labels);
  EXPECT_EQ(labels,
            (std::vector<Label>{Label::String("arg.comm", "perf"), Label::Number("arg.pid", 7547),
                                Label::Number("runtime", 49524, "nanoseconds")}));
  labels.clear();
  AppendTracepointLabels("fd: 0x00000003, buf: 0x7ffd", &labels);
  EXPECT_EQ(labels, (std::vector<Label>{Label::String("args", "fd: 0x00000003, buf: 0x7ffd")}));
  EXPECT_EQ(TracepointArgument("prev_pid=5 prev_state=D ==> next_pid=7", "prev_state"), "D");
  EXPECT_EQ(TracepointArgument("prev_pid=5 prev_state=D ==> next_pid=7", "next_pid"), "7");
  EXPECT_EQ(TracepointArgument("prev_pid=5", "nothing"), "");
}

TEST(PerfRecordTest, Mmap2WithAndWithoutBuildId) {
  PerfRecordLine r;
  ASSERT_TRUE(ParsePerfRecord(
      "prog 7341 10352.185314: PERF_RECORD_MMAP2 7341/7341: [0x55c63c06c000(0x1000) @ 0x1000 "
      "fe:00 10969122 323248838]: r-xp /tmp/perf rec/prog",
      &r));
  EXPECT_EQ(r.kind, PerfRecordLine::Kind::kMmap);
  EXPECT_EQ(r.header.comm, "prog");
  EXPECT_EQ(r.header.time_nanos, 10352185314000);
  EXPECT_EQ(r.pid, 7341);
  EXPECT_EQ(r.start, 0x55c63c06c000u);
  EXPECT_EQ(r.length, 0x1000u);
  EXPECT_EQ(r.pgoff, 0x1000u);
  EXPECT_EQ(r.build_id, "");
  EXPECT_EQ(r.file, "/tmp/perf rec/prog");
  ASSERT_TRUE(ParsePerfRecord(
      "swapper     0     0.000000: PERF_RECORD_MMAP2 -1/0: [0xffffffff81000000(0x1209988) @ "
      "0xffffffff81000000 <48dc540c8b76393804ca8088dbfa7d42911a9444>]: ---p [kernel.kallsyms]_text",
      &r));
  EXPECT_EQ(r.pid, -1);
  EXPECT_EQ(r.build_id, "48dc540c8b76393804ca8088dbfa7d42911a9444");
  EXPECT_EQ(r.file, "[kernel.kallsyms]_text");
  ASSERT_TRUE(ParsePerfRecord("prog 10316 [001] 10478.907761: PERF_RECORD_SWITCH IN   ", &r));
  EXPECT_EQ(r.kind, PerfRecordLine::Kind::kSwitchIn);
  EXPECT_EQ(r.header.tid, 10316);
  ASSERT_TRUE(ParsePerfRecord("prog 1 [001] 1.000001: PERF_RECORD_SWITCH OUT preempt", &r));
  EXPECT_EQ(r.kind, PerfRecordLine::Kind::kSwitchOut);
  ASSERT_TRUE(ParsePerfRecord("prog 1 1.000001: PERF_RECORD_COMM exec: prog:1/1", &r));
  EXPECT_EQ(r.kind, PerfRecordLine::Kind::kOther);
  EXPECT_FALSE(ParsePerfRecord("prog 1 1.0: PERF_RECORD_MMAP2 1/1: [garbage]: r-xp x", &r));
  EXPECT_FALSE(ParsePerfRecord("PERF_RECORD_MMAP2 alone", &r));
}

TEST(PerfMappingsTest, RelativeAndAbsoluteAddresses) {
  PerfMappings mappings;
  PerfRecordLine r;
  ASSERT_TRUE(ParsePerfRecord(
      "prog 7341 1.0: PERF_RECORD_MMAP2 7341/7341: [0x7fa34ebb1000(0x156000) @ 0x26000 fe:00 1 "
      "0]: r-xp /lib/libc.so.6",
      &r));
  mappings.Add(r);
  uint64_t address = 0;
  // A call-chain address relative to the object: ip - start + pgoff.
  const PerfMappings::Segment* s =
      mappings.Find(-1, 7341, "/lib/libc.so.6", 0x2724a, true, &address);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(address, 0x7fa34ebb224au);
  EXPECT_EQ(s->offset, 0x26000u);
  // A one-line sample's address is absolute.
  ASSERT_NE(mappings.Find(-1, 7341, "/lib/libc.so.6", 0x7fa34ebb224a, false, &address), nullptr);
  EXPECT_EQ(address, 0x7fa34ebb224au);
  EXPECT_EQ(mappings.Find(-1, 7341, "/lib/libc.so.6", 0x2724a, false, &address), nullptr);
  EXPECT_EQ(mappings.Find(-1, 7341, "/lib/other.so", 0x2724a, true, &address), nullptr);
  EXPECT_EQ(mappings.Find(-1, 9999, "/lib/libc.so.6", 0x2724a, true, &address), nullptr);
}

TEST(PerfOffCpuTest, IntervalsCloseWhenTheThreadRunsOrAtTheEnd) {
  struct Emitted {
    int64_t tid;
    uint64_t stack;
    int64_t time;
    int64_t duration;
    std::string state;
  };
  std::vector<Emitted> emitted;
  PerfOffCpu off([&](int64_t tid, uint64_t stack, const std::vector<Label>& labels, int64_t time,
                     int64_t duration) {
    emitted.push_back(Emitted{tid, stack, time, duration, labels.back().str});
  });
  off.SwitchedOut(10, 1000, 1, {Label::Number("tid", 10)}, "S");
  off.SwitchedOut(11, 1500, 2, {Label::Number("tid", 11)}, "D");
  off.SwitchedOut(12, 1600, 3, {}, "X");  // dead: no interval
  off.SwitchedOut(0, 1600, 3, {}, "R");   // the idle task: none either
  off.Running(10, 4000);
  off.Running(10, 5000);  // already running: nothing
  off.End(9000);
  ASSERT_EQ(emitted.size(), 2u);
  EXPECT_EQ(emitted[0].tid, 10);
  EXPECT_EQ(emitted[0].stack, 1u);
  EXPECT_EQ(emitted[0].time, 1000);
  EXPECT_EQ(emitted[0].duration, 3000);
  EXPECT_EQ(emitted[0].state, "S");
  EXPECT_EQ(emitted[1].tid, 11);
  EXPECT_EQ(emitted[1].duration, 7500);
  EXPECT_EQ(emitted[1].state, "D");
}

}  // namespace
}  // namespace perf_events_test
}  // namespace proftools
