// The line parsers of perf script text, on every header and frame form perf prints.
#include "common/perf/perf_script.h"

#include <gtest/gtest.h>

#include <string>

#include "common/io/byte_stream.h"
#include "common/perf/perf_codec.h"
#include "common/perf/perf_reader.h"
#include "common/perf/perf_symbols.h"

namespace proftools {
namespace perf_script_test {  // a namespace of its own: the tests build as one unit
namespace {

// Lines are string literals: the parsed fields are views into them.
PerfHeader Header(std::string_view line) {
  PerfHeader h;
  EXPECT_TRUE(ParsePerfHeader(line, &h)) << line;
  return h;
}

TEST(PerfHeaderTest, ModernDefaultForm) {
  const PerfHeader h = Header("bigload 24681  1098.465719:    2004008 cpu-clock: ");
  EXPECT_EQ(h.comm, "bigload");
  EXPECT_FALSE(h.has_pid);
  EXPECT_EQ(h.tid, 24681);
  EXPECT_FALSE(h.has_cpu);
  EXPECT_TRUE(h.has_time);
  EXPECT_EQ(h.time_nanos, 1098465719000);
  EXPECT_TRUE(h.has_period);
  EXPECT_EQ(h.period, 2004008);
  EXPECT_EQ(h.event, "cpu-clock");
  EXPECT_EQ(h.rest, "");
}

TEST(PerfHeaderTest, PidTidCpuAndNanosecondTimestamp) {
  const PerfHeader h = Header("java 24636/25607 [003] 4794564.109216123: cycles:u:");
  EXPECT_EQ(h.comm, "java");
  EXPECT_TRUE(h.has_pid);
  EXPECT_EQ(h.pid, 24636);
  EXPECT_EQ(h.tid, 25607);
  EXPECT_TRUE(h.has_cpu);
  EXPECT_EQ(h.cpu, 3u);
  EXPECT_EQ(h.time_nanos, 4794564109216123);
  EXPECT_FALSE(h.has_period);
  EXPECT_EQ(h.event, "cycles:u");
}

TEST(PerfHeaderTest, ThreadNameWithSpacesEndingInANumber) {
  const PerfHeader h = Header("net io 2 24718  1102.687006:    2004008 cpu-clock:");
  EXPECT_EQ(h.comm, "net io 2");
  EXPECT_EQ(h.tid, 24718);
  const PerfHeader padded = Header("net io 2  9310   348.097793:    1001001 cpu-clock: ");
  EXPECT_EQ(padded.comm, "net io 2");
  EXPECT_EQ(padded.tid, 9310);
}

TEST(PerfHeaderTest, OneCharacterAndRightAlignedAndMissingComm) {
  EXPECT_EQ(Header("t 99076 10314749.002559:     250000 cpu-clock: ").comm, "t");
  EXPECT_EQ(Header("           false 39654 19115.489713:   1 cycles:u:").comm, "false");
  const PerfHeader none = Header(" 123/123 1.000: 10 cpu-clock: ");
  EXPECT_EQ(none.comm, "");
  EXPECT_EQ(none.pid, 123);
}

TEST(PerfHeaderTest, OldPerfWithoutTimestamp) {
  const PerfHeader h = Header("java  3244 cpu-clock:");
  EXPECT_EQ(h.comm, "java");
  EXPECT_EQ(h.tid, 3244);
  EXPECT_FALSE(h.has_time);
  EXPECT_EQ(h.event, "cpu-clock");
  EXPECT_EQ(Header("V8 WorkerThread 25607 [001] cycles:").comm, "V8 WorkerThread");
}

TEST(PerfHeaderTest, FieldSetsWithoutTheEvent) {
  const PerfHeader period = Header("bigload 24681  1098.465719:    2004008 ");
  EXPECT_EQ(period.event, "");
  EXPECT_TRUE(period.has_period);
  EXPECT_EQ(period.period, 2004008);
  const PerfHeader none = Header("bigload 24681/24681 [001] 1098.465719:");
  EXPECT_EQ(none.event, "");
  EXPECT_FALSE(none.has_period);
}

TEST(PerfHeaderTest, HybridEventNamesAndTracepointArguments) {
  EXPECT_EQ(Header("foo 123 [000] 1.001: 5000 cpu_atom/cycles/P: ").event, "cpu_atom/cycles/P");
  const PerfHeader tp = Header(
      "net io 2 24808 [000]  1113.863186: syscalls:sys_enter_write: fd: 0x00000003, buf: "
      "0x7f682791ab50");
  EXPECT_EQ(tp.comm, "net io 2");
  EXPECT_EQ(tp.event, "syscalls:sys_enter_write");
  EXPECT_EQ(tp.rest, "fd: 0x00000003, buf: 0x7f682791ab50");
}

TEST(PerfHeaderTest, FrameOnTheHeaderLine) {
  const PerfHeader h = Header(
      "        worker-1 24717  1102.686942:    2004008 cpu-clock:      5581ceed4fdc "
      "app::work::syscall_work+0x2c (/opt/demo/bigload)");
  EXPECT_EQ(h.comm, "worker-1");
  PerfFrame f;
  ASSERT_TRUE(ParsePerfFrame(h.rest, &f));
  EXPECT_EQ(f.address, 0x5581ceed4fdcu);
  EXPECT_EQ(f.symbol, "app::work::syscall_work");
}

TEST(PerfHeaderTest, NotHeaders) {
  PerfHeader h;
  EXPECT_FALSE(ParsePerfHeader("\t  4005b1 main+0x1 (/tmp/t)", &h));
  EXPECT_FALSE(ParsePerfHeader("# captured on: Thu Aug 17 14:14:43 2017", &h));
  EXPECT_FALSE(ParsePerfHeader("", &h));
  EXPECT_FALSE(ParsePerfHeader("THIS_IS_A_WEIRD_LINE", &h));
  EXPECT_FALSE(ParsePerfHeader("401234 foo: (dso)", &h));  // a frame of perf 3.2, not a header
}

PerfFrame Frame(std::string_view line) {
  PerfFrame f;
  EXPECT_TRUE(ParsePerfFrame(line, &f)) << line;
  return f;
}

TEST(PerfFrameTest, OffsetRemovedDsoKept) {
  const PerfFrame f = Frame("\t ffffffff82259c96 do_syscall_64+0x46 ([kernel.kallsyms])\r");
  EXPECT_EQ(f.address, 0xffffffff82259c96u);
  EXPECT_EQ(f.symbol, "do_syscall_64");
  EXPECT_EQ(f.dso, "[kernel.kallsyms]");
  EXPECT_FALSE(f.unknown_symbol);
  // An absurd offset is still an offset; a name with '+' elsewhere is untouched.
  EXPECT_EQ(Frame("1 cpu_startup_entry+0xffff018fd5dce000 (x)").symbol, "cpu_startup_entry");
  EXPECT_EQ(Frame("1 operator+ (x)").symbol, "operator+");
}

TEST(PerfFrameTest, NamesWithSpacesAndParentheses) {
  const PerfFrame f =
      Frame("1 std::function<void (int, int)>::operator()(int, int) const+0x1 (/tmp/t)");
  EXPECT_EQ(f.symbol, "std::function<void (int, int)>::operator()(int, int) const");
  EXPECT_EQ(f.dso, "/tmp/t");
  EXPECT_EQ(Frame("9c51fd34 java.lang.String.hashCode ([JIT app cache])").dso, "[JIT app cache]");
  EXPECT_EQ(Frame("4005b2 main+0x2 (/opt/My App 1.0/bin/foo)").dso, "/opt/My App 1.0/bin/foo");
}

TEST(PerfFrameTest, DeletedUnknownAndEmpty) {
  const PerfFrame d = Frame("41fb [unknown] (/opt/demo/del/bigload-del (deleted))");
  EXPECT_EQ(d.dso, "/opt/demo/del/bigload-del");
  EXPECT_TRUE(d.deleted);
  EXPECT_TRUE(d.unknown_symbol);
  const PerfFrame u = Frame("1 [unknown] ([unknown])");
  EXPECT_TRUE(u.unknown_symbol);
  EXPECT_TRUE(u.unknown_dso);
  const PerfFrame e = Frame("7f1e2215d058  (/lib/libc-2.15.so)");
  EXPECT_TRUE(e.unknown_symbol);
  EXPECT_EQ(e.dso, "/lib/libc-2.15.so");
  const PerfFrame bare = Frame("4005b1 main");  // -F ip,sym: no dso
  EXPECT_EQ(bare.symbol, "main");
  EXPECT_TRUE(bare.unknown_dso);
}

TEST(PerfFrameTest, NotFrames) {
  PerfFrame f;
  EXPECT_FALSE(ParsePerfFrame("THIS_IS_A_WEIRD_LINE", &f));
  EXPECT_FALSE(ParsePerfFrame("bigload.cpp:72", &f));
  EXPECT_FALSE(ParsePerfFrame("12345678901234567 x (y)", &f));  // 17 hex digits
}

TEST(PerfSrclineTest, FileLineOrNothing) {
  std::string_view file;
  int64_t line = -1;
  bool inlined = true;
  ASSERT_TRUE(ParsePerfSrcline("  bigload.cpp:72", &file, &line, &inlined));
  EXPECT_FALSE(inlined);
  EXPECT_EQ(file, "bigload.cpp");
  EXPECT_EQ(line, 72);
  ASSERT_TRUE(ParsePerfSrcline("  libc-2.33.so[27b25]", &file, &line, &inlined));
  EXPECT_EQ(file, "");
  EXPECT_EQ(line, 0);
  ASSERT_TRUE(ParsePerfSrcline("  ??:0", &file, &line, &inlined));
  EXPECT_EQ(file, "");
  EXPECT_FALSE(ParsePerfSrcline("  some words", &file, &line, &inlined));
  // perf 6.1: `:0` (no file), and the `(inlined)` tag of the frame moved onto its srcline.
  line = -1;
  ASSERT_TRUE(ParsePerfSrcline("  :0", &file, &line, &inlined));
  EXPECT_EQ(file, "");
  EXPECT_EQ(line, 0);
  ASSERT_TRUE(ParsePerfSrcline("  prog.c:11 (inlined)", &file, &line, &inlined));
  EXPECT_TRUE(inlined);
  EXPECT_EQ(file, "prog.c");
  EXPECT_EQ(line, 11);
  EXPECT_FALSE(ParsePerfSrcline("  (inlined)", &file, &line, &inlined));
}

TEST(PerfHeaderTest, PerfSchedUnknownThread) {
  PerfHeader h;
  ASSERT_TRUE(
      ParsePerfHeader("             :-1    -1 [000] 10360.721205: sched:sched_stat_runtime: "
                      "comm=pprof pid=7554 runtime=11898 [ns]",
                      &h));
  EXPECT_EQ(h.comm, ":-1");
  EXPECT_EQ(h.tid, -1);
  EXPECT_EQ(h.cpu, 0u);
  EXPECT_EQ(h.event, "sched:sched_stat_runtime");
}

TEST(PerfFrameTest, InlinedTag) {
  PerfFrame f;
  ASSERT_TRUE(ParsePerfFrame("\t1247 inner_work+0x37 (inlined)", &f));
  EXPECT_TRUE(f.inlined);
  EXPECT_TRUE(f.unknown_dso);
  EXPECT_EQ(f.symbol, "inner_work");
  ASSERT_TRUE(ParsePerfFrame("\t1247 compute+0x37 (/tmp/prog)", &f));
  EXPECT_FALSE(f.inlined);
}

TEST(PerfSymbolTest, Demangling) {
  SymbolName cxx = DemangleSymbol("_ZN3app4work8dispatchEj");
  EXPECT_EQ(cxx.name, "app::work::dispatch(unsigned int)");
  EXPECT_EQ(cxx.system_name, "_ZN3app4work8dispatchEj");
  SymbolName plain = DemangleSymbol("app::work::dispatch");
  EXPECT_EQ(plain.name, "app::work::dispatch");
  EXPECT_EQ(plain.system_name, "");
  SymbolName bad = DemangleSymbol("_Znot_mangled");
  EXPECT_EQ(bad.name, "_Znot_mangled");
  SymbolName rust = DemangleSymbol("core..fmt..Write$LT$T$GT$::write_fmt::h0123456789abcdef");
  EXPECT_EQ(rust.name, "core::fmt::Write<T>::write_fmt");
}

// perf.data's frames are named as `perf script` names them: parameters and return type left out,
// and a PLT entry's symbol demangled before its `@plt` (a sample in `std::thread::join@plt` once
// failed tests/interop-perf-data.sh, where it lands by chance).
TEST(PerfSymbolTest, DemangledAsPerfScriptShowsThem) {
  SymbolName cxx = DemangleAsPerf("_ZN3app4work8dispatchEj");
  EXPECT_EQ(cxx.name, "app::work::dispatch");
  SymbolName plt = DemangleAsPerf("_ZNSt6thread4joinEv@plt");
  EXPECT_EQ(plt.name, "std::thread::join@plt");
  EXPECT_EQ(plt.system_name, "_ZNSt6thread4joinEv@plt");
  SymbolName c_plt = DemangleAsPerf("malloc@plt");
  EXPECT_EQ(c_plt.name, "malloc@plt");
  EXPECT_EQ(c_plt.system_name, "");
  EXPECT_EQ(DemangleAsPerf("@plt").name, "@plt");
}

// Symbols are input: escapes and hashes cut anywhere must neither throw nor read out of range.
TEST(PerfSymbolTest, HostileSymbolsDemangleWithoutThrowing) {
  // `_$` one byte in: the check for a preceding `::` once looked at position -1.
  EXPECT_EQ(DemangleSymbol("x_$::h0123456789abcdef").name, "x_$");
  EXPECT_EQ(DemangleSymbol("_$::h0123456789abcdef").name, "$");
  EXPECT_EQ(DemangleSymbol("a::_$LT$::h0123456789abcdef").name, "a::<");
  EXPECT_EQ(DemangleSymbol("$LT::h0123456789abcdef").name, "$LT");
  EXPECT_EQ(DemangleSymbol("$::h0123456789abcdef").name, "$");
  EXPECT_EQ(DemangleSymbol(".::h0123456789abcdef").name, ".");
  EXPECT_EQ(DemangleSymbol("x::h0123456789abcdeg").name, "x::h0123456789abcdeg");  // not hex
  EXPECT_EQ(DemangleSymbol("::h0123456789abcdef").name, "::h0123456789abcdef");    // no path
  for (const std::string& symbol :
       {std::string("_Z"), std::string("_Z\0", 3), std::string("_ZN") + std::string(5000, 'N'),
        std::string("_$"), std::string("$"), std::string(""), std::string("_$_$_$::h") + "0"}) {
    EXPECT_NO_THROW(DemangleSymbol(symbol)) << symbol;
  }
}

// The reader's context rules, line by line.
TEST(PerfReaderTest, ContextDecides) {
  MemoryStream in(
      "# comment\n"
      "a 1 1.0: cpu-clock:\n"
      "\t1 f (x)\n"
      "  f.c:3\n"
      "2 g (x)\n"  // perf 3.2: a frame without indentation
      "junk here\n"
      " \t \r\n"
      "\t3 h (x)\n"  // a frame outside any sample
      "    b 2 2.0: 1 cpu-clock:  4 k (y)\n"
      "  k.c:9\n");
  PerfScriptReader reader(&in);
  using K = PerfScriptReader::Kind;
  std::vector<K> kinds;
  while (reader.Next()) kinds.push_back(reader.kind());
  EXPECT_EQ(kinds, (std::vector<K>{K::kComment, K::kHeader, K::kFrame, K::kSrcline, K::kFrame,
                                   K::kUnknown, K::kBlank, K::kUnknown, K::kHeader, K::kSrcline}));
}

TEST(PerfScriptSniffer, PerfsStackLinesAndSimpleperfsReportSampleText) {
  // perf script: a tab, then the address and a space.
  EXPECT_TRUE(LooksLikePerfScript("app 12 [000] 1.0: 1 cpu-clock:\n\t    401000 main (/a)\n"));
  // simpleperf's report_sample.py: the address right-aligned in spaces, then a tab (issue 43).
  EXPECT_TRUE(LooksLikePerfScript(
      "app\t1234/1235 [001] 100.000100: 1000000 cpu-clock:\n      7f00001000\tfib (/l.so)\n"));
  // Indented numbers followed by a space, with no tab at all, are not stack lines (a gprof
  // report's columns); neither is a line of leading tabs and spaces alone (no hang either).
  EXPECT_FALSE(LooksLikePerfScript("header\n        1000 fib [2]\n"));
  EXPECT_FALSE(LooksLikePerfScript("x\n\t \t \t"));
  EXPECT_FALSE(LooksLikePerfScript(std::string(4096, '\t')));
}

}  // namespace
}  // namespace perf_script_test
}  // namespace proftools
