// The codec test kit: every reader of the registry (common/load/readers.h), parametrised over
// the table, so that a new codec is held to the same rules from its first commit. Each reader
// has sample inputs (kSamples below: a reader without one fails ReadersHaveSamples); each sample
// is sniffed by its own reader and by no other as confidently; what a reader delivers passes
// the checker and reads back from canonical text to the same text.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/model/checker.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace readers_test {  // a namespace of its own: the tests build as one unit
namespace {

// Sample inputs per reader: files of the repository (paths from its top, where the unit tests
// run), or bytes written here for formats that are only recognised.
struct Sample {
  std::string path;   // a file, or "" for `bytes`
  std::string bytes;  // the content when no path
};

const std::map<std::string, std::vector<Sample>>& Samples() {
  static const auto* samples = new std::map<std::string, std::vector<Sample>>{
      {"prof", {{"golden/inputs/worked-example.prof", ""}, {"golden/inputs/names.prof", ""}}},
      {"pprof", {{"golden/pprof/corpus/ok-inline.pb.gz", ""}}},
      {"legacy-pprof", {{"", "heap profile: 1: 2 [3: 4] @ heap/1048576\n"}}},
      {"perf", {{"golden/format/perf-script-input-read/perf.txt", ""}}},
      {"perf-data",
       {{"golden/perf-data/inputs/tiny.data", ""}, {"golden/perf-data/inputs/tiny-pipe.data", ""}}},
      {"rprof", {{"golden/format/rprof-input-read/Rprof.out", ""}}},
      {"sqlite", {{"golden/inputs/rsprof-recording.db", ""}}},
      {"known-formats", {{"", std::string("gmon\x01\0\0\0\0\0\0\0", 12)}}},
      {"massif", {{"golden/valgrind/inputs/massif.out", ""}}},
      {"instruments",
       {{"golden/instruments/inputs/time-profile.txt", ""},
        {"golden/instruments/inputs/allocations.txt", ""}}},
      {"gprof-report", {{"golden/gprof/inputs/report.txt", ""}}},
      {"perfetto",
       {{"golden/perfetto/inputs/android-perf.pftrace", ""},
        {"golden/perfetto/inputs/heapprofd.pftrace", ""},
        {"golden/perfetto/inputs/chrome-streaming.pftrace", ""},
        {"golden/perfetto/inputs/sdk-slices.pftrace", ""},
        {"golden/perfetto/inputs/compressed.pftrace", ""},
        {"golden/perfetto/inputs/chromium-v8.pftrace.gz", ""}}},
      {"simpleperf", {{"golden/simpleperf/inputs/report_sample.trace", ""}}},
      {"art-trace",
       {{"golden/android/inputs/app-regular.trace", ""},
        {"golden/android/inputs/app-streaming.trace", ""}}},
      {"v8-log",
       {{"golden/v8log/inputs/workload.v8.log.gz", ""},
        {"golden/v8log/inputs/workload.preprocessed.json.gz", ""},
        {"",
         "v8-version,11,3,244,8,-node.38,0\nprofiler,begin,1000\n"
         "code-creation,JS,10,5,0x1000,64,f /a.js:1:1,0x9,~\n"
         "tick,0x1010,7,0,0x0,0,0x1020\n"}}},
      {"ghc-prof",
       {{"golden/ghc/inputs/work-P.prof", ""},
        {"golden/ghc/inputs/work-p.prof", ""},
        {"golden/ghc/inputs/work.json.prof", ""}}},
      {"stackprof",
       {{"golden/stackprof/inputs/cpu.dump", ""},
        {"golden/stackprof/inputs/cpu.json", ""},
        {"golden/stackprof/inputs/aggregate.dump", ""}}},
      {"dhat",
       {{"golden/valgrind/inputs/dhat.json", ""}, {"golden/valgrind/inputs/dhat-copy.json", ""}}},
      {"folded",
       {{"golden/folded/inputs/async-profiler-collapsed.txt", ""},
        {"golden/folded/inputs/py-spy-raw.txt", ""},
        {"golden/folded/inputs/difffolded.txt", ""},
        {"golden/perf/corpus/flamegraph/results/perf-java-stacks-01-collapsed-all.txt.gz", ""}}},
      {"cpuprofile",
       {{"golden/chrome/inputs/app.cpuprofile", ""},
        {"", R"j({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},)j"
             R"j({"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0}}],)j"
             R"j("startTime":5,"endTime":9,"samples":[2,2],"timeDeltas":[1,2]})j"}}},
      {"chrome-trace",
       {{"golden/chrome/inputs/app.trace.json", ""},
        {"golden/chrome/inputs/app.events.json", ""},
        {"golden/chrome/inputs/page.trace.json", ""},
        {"", R"j([{"ph":"P","name":"Profile","pid":1,"tid":2,"id":"0x1",)j"
             R"j("args":{"data":{"startTime":10}}},)j"
             R"j({"ph":"P","name":"ProfileChunk","pid":1,"tid":3,"id":"0x1","ts":11,)j"
             R"j("args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":)j"
             R"j({"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":)j"
             R"j({"functionName":"g"}}],"samples":[2,2]},"timeDeltas":[1,1]}}}])j"},
        {"", R"j({"traceEvents":[],"stackFrames":{"1":{"name":"main"},"2":{"name":"f",)j"
             R"j("parent":"1"}},"samples":[{"tid":1,"ts":5,"sf":"2","weight":1}]})j"}}},
      {"heapprofile",
       {{"golden/chrome/inputs/heap.heapprofile", ""},
        {"", R"j({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,)j"
             R"j("children":[{"callFrame":{"functionName":"f","url":"a.js","lineNumber":2},)j"
             R"j("selfSize":64,"id":2,"children":[]}]}})j"}}},
      {"speedscope",
       {{"golden/speedscope/inputs/app.speedscope.json", ""},
        {"golden/speedscope/inputs/perf.speedscope.json.gz", ""},
        {"golden/speedscope/inputs/edges.speedscope.json", ""},
        // Without $schema (speedscope reads such a file by its name, *.speedscope.json): sniffed
        // by its keys.
        {"", R"j({"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"sampled","name":"t",)j"
             R"j("unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[1]}]})j"}}},
      {"callgrind",
       {{"golden/callgrind/inputs/workload.callgrind.gz", ""},
        {"golden/callgrind/inputs/workload.instr.callgrind.gz", ""},
        {"golden/callgrind/inputs/workload.cachegrind.gz", ""},
        {"", "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=2 9\n1 7\nfn=f\n9 7\n"}}},
      {"jfr", {{"golden/jfr/inputs/rec.jfr.gz", ""}, {"golden/jfr/inputs/tiny.jfr", ""}}},
      {"pstats",
       {{"golden/pstats/inputs/cprofile.pstats", ""}, {"golden/pstats/inputs/profile.pstats", ""}}},
      {"firefox",
       {{"golden/firefox/inputs/page.gecko.json.gz", ""},
        {"golden/firefox/inputs/tiny-gecko.json", ""},
        {"golden/firefox/inputs/worked-example.processed.json", ""},
        {"", R"j({"meta":{"version":27,"startTime":1000,"interval":1,"categories":)j"
             R"j([{"name":"Other"},{"name":"JavaScript"}]},"libs":[],"threads":[{"name":"M",)j"
             R"j("pid":1,"tid":1,"stringTable":["(root)","f (a.js:3:5)"],"samples":)j"
             R"j({"schema":{"stack":0,"time":1},"data":[[1,0.5]]},"stackTable":{"schema":)j"
             R"j({"prefix":0,"frame":1},"data":[[null,0],[0,1]]},"frameTable":{"schema":)j"
             R"j({"location":0,"category":1},"data":[[0,0],[1,1]]}}],"processes":[]})j"},
        {"", R"j({"meta":{"preprocessedProfileVersion":70,"startTime":2000,"interval":1},)j"
             R"j("libs":[],"shared":{"stringArray":["main","f"],"funcTable":{"name":[0,1],)j"
             R"j("length":2},"frameTable":{"func":[0,1],"length":2},"stackTable":{"frame":)j"
             R"j([0,1],"prefixOffset":[0,1],"length":2}},"threads":[{"name":"T","pid":"7",)j"
             R"j("tid":7,"samples":{"stack":[1,0],"timeDeltas":[1,1],"weight":null,)j"
             R"j("weightType":"samples","length":2}}]})j"}}},
  };
  return *samples;
}

Input OpenSample(const Sample& sample) {
  if (!sample.path.empty()) return OpenInput(sample.path);
  return OpenInputStream(std::make_unique<MemoryStream>(sample.bytes), "sample");
}

std::string SampleName(const Sample& sample) {
  return sample.path.empty() ? "(bytes)" : sample.path;
}

class ReaderTest : public ::testing::TestWithParam<const ReaderSpec*> {};

TEST_P(ReaderTest, HasSamples) {
  const ReaderSpec& reader = *GetParam();
  ASSERT_TRUE(Samples().count(reader.name))
      << "reader '" << reader.name << "' has no sample input in tests/readers_test.cc";
}

TEST_P(ReaderTest, ItsSamplesAreSniffedAsItsOwnAndNoOtherAsConfidently) {
  const ReaderSpec& reader = *GetParam();
  if (!Samples().count(reader.name)) GTEST_SKIP();
  for (const Sample& sample : Samples().at(reader.name)) {
    const Input input = OpenSample(sample);
    const int own = reader.sniff(input.head, input.text);
    EXPECT_GT(own, kNotMine) << SampleName(sample);
    for (const ReaderSpec* other : Readers()) {
      if (other == &reader) continue;
      EXPECT_LT(other->sniff(input.head, input.text), own)
          << SampleName(sample) << " is claimed as confidently by '" << other->name << "'";
    }
    EXPECT_EQ(SniffReader(input), &reader) << SampleName(sample);
  }
}

// What a reader delivers keeps every rule of the format, and its canonical text reads back to
// itself; a reader that only advises throws its advice, naming the input.
TEST_P(ReaderTest, ReadsIntoCheckedCanonicalTextOrAdvises) {
  const ReaderSpec& reader = *GetParam();
  if (!Samples().count(reader.name)) GTEST_SKIP();
  for (const Sample& sample : Samples().at(reader.name)) {
    Input input = OpenSample(sample);
    StringSink text;
    CanonicalWriter writer(&text);
    DiagnosticHandler throw_on_violation;
    CheckingSink checked(&writer, &throw_on_violation, input.name);
    ReadOptions options;
    options.format = reader.only_advises ? "" : reader.name;
    if (reader.only_advises) {
      try {
        ReadProfile(input, &checked, options);
        ADD_FAILURE() << reader.name << " read " << SampleName(sample) << " instead of advising";
      } catch (const ProfError& e) {
        EXPECT_EQ(e.diagnostic().file, input.name);
        EXPECT_FALSE(e.diagnostic().message.empty());
      }
      continue;
    }
    ReadProfile(input, &checked, options);
    ASSERT_FALSE(text.text().empty()) << SampleName(sample);
    MemoryStream again(text.text());
    StringSink text2;
    CanonicalWriter writer2(&text2);
    ReadText(&again, "canonical", &writer2, nullptr);
    EXPECT_EQ(text2.text(), text.text()) << SampleName(sample);
  }
}

// The same input read by name (--input-format) and sniffed gives the same bytes.
TEST_P(ReaderTest, ChoosingByNameAndBySniffingAgree) {
  const ReaderSpec& reader = *GetParam();
  if (!Samples().count(reader.name) || reader.only_advises) GTEST_SKIP();
  for (const Sample& sample : Samples().at(reader.name)) {
    std::string outputs[2];
    for (int by_name = 0; by_name < 2; ++by_name) {
      Input input = OpenSample(sample);
      StringSink text;
      CanonicalWriter writer(&text);
      ReadOptions options;
      if (by_name) options.format = reader.name;
      ReadProfile(input, &writer, options);
      outputs[by_name] = text.text();
    }
    EXPECT_EQ(outputs[0], outputs[1]) << SampleName(sample);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, ReaderTest, ::testing::ValuesIn(Readers()),
                         [](const ::testing::TestParamInfo<const ReaderSpec*>& info) {
                           std::string name;
                           for (char c : std::string(info.param->name)) {
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           }
                           return name;
                         });

TEST(Registry, NamesAreUniqueAndListedForInputFormat) {
  std::map<std::string, int> seen;
  for (const ReaderSpec* reader : Readers()) EXPECT_EQ(++seen[reader->name], 1) << reader->name;
  EXPECT_EQ(ReaderNames(),
            "prof, pprof, perf, perf-data, rprof, sqlite, folded, cpuprofile, chrome-trace, "
            "heapprofile, speedscope, callgrind, jfr, firefox, pstats, massif, dhat, instruments, "
            "gprof-report, perfetto, simpleperf, art-trace, stackprof, v8-log, ghc-prof");
  EXPECT_EQ(FindReader("perf"), &ReaderNamed("perf"));
  EXPECT_THROW(ReaderNamed("nope"), UsageError);
  EXPECT_EQ(FindReader("sqlite"), &ReaderNamed("sqlite"));  // databases are read, not advised of
}

Input Bytes(const std::string& bytes) {
  return OpenInputStream(std::make_unique<MemoryStream>(bytes), "in");
}

TEST(Registry, SniffsByContentNotByName) {
  EXPECT_EQ(SniffReader(Bytes("proftext 1.0\n")), FindReader("prof"));
  EXPECT_EQ(SniffReader(Bytes("memory profiling: sample.interval=20000\n\"f\" \n")),
            FindReader("rprof"));
  EXPECT_EQ(SniffReader(Bytes("x 12 1.0: cycles:\n\t    4005d0 main+0x1 (/bin/x)\n")),
            FindReader("perf"));
  // A header after something else is still prof text, for the text reader to say what is wrong.
  EXPECT_EQ(SniffReader(Bytes("# comment\nproftext 1.0\n")), FindReader("prof"));
  // A misspelt header, which folded stacks would also parse ("proftext" worth 1.0), is ours.
  EXPECT_EQ(SniffReader(Bytes("proftext\t1.0\nsource 1 manual x -\n")), FindReader("prof"));
  EXPECT_EQ(SniffReader(Bytes("hello\n")), nullptr);
  EXPECT_EQ(SniffReader(Bytes("")), nullptr);
}

TEST(Registry, WhatNoReaderClaimsIsRefusedSayingWhatItLooksLike) {
  try {
    ChooseReader(Bytes("hello world\n"), "");
    ADD_FAILURE() << "chosen";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().line, 1u);
    EXPECT_NE(e.diagnostic().message.find("hello world"), std::string::npos);
    EXPECT_NE(e.diagnostic().message.find("--input-format"), std::string::npos);
  }
  EXPECT_THROW(ChooseReader(Bytes(std::string("\x01\x02\x03", 3)), ""), ProfError);
  // An empty input goes to the text reader, which says what a profile starts with.
  EXPECT_EQ(&ChooseReader(Bytes(""), ""), FindReader("prof"));
}

TEST(Registry, ConvertersRefuseOtherFormatsNamingBoth) {
  Input text = Bytes("proftext 1.0\n");
  try {
    RequireFormat(text, *FindReader("perf"), "");
    ADD_FAILURE() << "accepted";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "is prof text, not perf script output: read it with prof-text");
  }
  Input legacy = Bytes("heap profile: 1: 2 [3: 4] @ heap/1048576\n");
  try {
    RequireFormat(legacy, *FindReader("rprof"), "");
    ADD_FAILURE() << "accepted";
  } catch (const ProfError& e) {
    EXPECT_NE(e.diagnostic().message.find("pprof -proto"), std::string::npos);
  }
  Input unknown = Bytes("hello\n");
  EXPECT_NO_THROW(RequireFormat(unknown, *FindReader("perf"), ""));  // the converter says more
  EXPECT_THROW(RequireFormat(unknown, *FindReader("perf"), "rprof"), UsageError);
}

}  // namespace
}  // namespace readers_test
}  // namespace proftools
