// The writers' registry (load/writers.cc) and the Chrome trace writer (chrome/trace_writer):
// every writer gives the same bytes for the same profile and writes a profile without samples;
// prof2chrome's output is JSON (simdjson parses it) with its tracks, events, escapes and weights.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/callgrind/callgrind_writer.h"
#include "common/chrome/trace_writer.h"
#include "common/load/writers.h"
#include "common/pprof/pprof_codec.h"
#include "tests/pprof_test_util.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace writers_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::CollectingHandler;
using testing::MemorySource;
using testing::Parse;
using testing::Preamble;
using testing::StacksProfile;

std::string Write(const WriterSpec& writer, const Profile& profile, CollectingHandler* warnings,
                  std::map<std::string, std::string> options = {}) {
  MemorySource source(profile);
  StringSink out;
  WriteContext context;
  context.options = std::move(options);
  context.warnings = warnings;
  writer.write(source, &out, context);
  return out.text();
}

std::string Chrome(const std::string& text, CollectingHandler* warnings = nullptr,
                   std::map<std::string, std::string> options = {}) {
  CollectingHandler ignored;
  return Write(kChromeTraceWriter, Parse(text), warnings ? warnings : &ignored, std::move(options));
}

// The output parsed as JSON (a test failure when it is not).
struct Trace {
  explicit Trace(const std::string& json) : padded(json) {
    simdjson::dom::element root;
    const auto error = parser.parse(padded).get(root);
    valid = error == simdjson::SUCCESS;
    if (!valid) return;
    for (simdjson::dom::object event : root["traceEvents"].get_array()) {
      Event e;
      e.ph = std::string(std::string_view(event["ph"]));
      e.name = std::string(std::string_view(event["name"]));
      e.pid = int64_t(event["pid"]);
      e.tid = int64_t(event["tid"]);
      if (e.ph == "X") {
        e.ts = double(event["ts"]);
        e.dur = double(event["dur"]);
        e.has_args = event["args"].error() == simdjson::SUCCESS;
        if (e.has_args) {
          e.args = simdjson::minify(event["args"]);
        }
      } else {
        e.args = std::string(std::string_view(event["args"]["name"]));
      }
      events.push_back(e);
    }
    for (simdjson::dom::object sample : root["samples"].get_array()) {
      samples.push_back({std::string(std::string_view(sample["name"])), int64_t(sample["pid"]),
                         int64_t(sample["tid"]), double(sample["ts"]), int64_t(sample["weight"]),
                         sample["sf"].error() == simdjson::SUCCESS ? int64_t(sample["sf"]) : 0});
    }
    for (auto field : root["stackFrames"].get_object()) {
      simdjson::dom::object frame = field.value;
      frames[std::string(field.key)] = std::string(std::string_view(frame["name"]));
    }
  }
  struct Event {
    std::string ph, name, args;
    int64_t pid = 0, tid = 0;
    double ts = 0, dur = 0;
    bool has_args = false;
  };
  struct SampleEntry {
    std::string name;
    int64_t pid, tid;
    double ts;
    int64_t weight, sf;
  };
  simdjson::padded_string padded;
  simdjson::dom::parser parser;
  bool valid = false;
  std::vector<Event> events;
  std::vector<SampleEntry> samples;
  std::map<std::string, std::string> frames;
};

TEST(WritersTest, RegistryNamesEveryWriterOnce) {
  std::set<std::string> names, programs;
  for (const WriterSpec* writer : Writers()) {
    EXPECT_TRUE(names.insert(writer->name).second) << writer->name;
    EXPECT_TRUE(programs.insert(writer->program).second) << writer->program;
    EXPECT_EQ(FindWriter(writer->name), writer);
    EXPECT_NE(writer->write, nullptr);
    EXPECT_EQ(writer->extension[0], '.');
  }
  EXPECT_EQ(FindWriter("chrome-trace"), &kChromeTraceWriter);
  EXPECT_EQ(FindWriter("nosuch"), nullptr);
  EXPECT_EQ(WriterNames(), "prof, pprof, chrome-trace, speedscope, callgrind, firefox");
}

// Every writer: the same profile gives the same bytes whatever ids it came with (random profiles,
// each written again with its mappings', functions', locations' and stacks' ids renamed at
// random, which changes every hash and order of ids: what writing one profile twice in one
// process cannot show; source ids are kept, some writers show them; pprof's output, which keeps
// the ids, is compared read back), and a profile without samples is written, not refused.
TEST(WritersTest, EveryWriterIsDeterministic) {
  testing::RandomProfileGenerator generator(20261126);
  std::mt19937_64 random(41);
  for (int i = 0; i < 40; ++i) {
    const Profile profile = generator.Next();
    const Profile renumbered = testing::Renumbered(profile, &random, /*sources=*/false);
    for (const WriterSpec* writer : Writers()) {
      CollectingHandler a, b;
      const std::string first = Write(*writer, profile, &a);
      EXPECT_FALSE(first.empty()) << writer->name;
      const std::string second = Write(*writer, renumbered, &b);
      if (writer == &kPprofWriter) {
        // pprof's messages carry the input's ids (prof2pprof keeps them): its outputs are
        // compared read back in canonical form, which keeps the order of the samples.
        EXPECT_EQ(testing::PprofToText(first), testing::PprofToText(second)) << " profile " << i;
      } else {
        EXPECT_EQ(first, second) << writer->name << " profile " << i;
      }
      EXPECT_EQ(a.warnings.size(), b.warnings.size());
    }
  }
  const Profile empty = Parse(Preamble());
  for (const WriterSpec* writer : Writers()) {
    CollectingHandler warnings;
    EXPECT_NO_THROW(Write(*writer, empty, &warnings)) << writer->name;
  }
}

TEST(ChromeTraceWriterTest, RandomProfilesAreJson) {
  testing::RandomProfileGenerator generator(7);
  for (int i = 0; i < 60; ++i) {
    const Profile profile = generator.Next();
    CollectingHandler warnings;
    const std::string json = Write(kChromeTraceWriter, profile, &warnings);
    const Trace trace(json);
    ASSERT_TRUE(trace.valid) << json;
    // Every sample once in the samples array, each track closed by an (end) entry.
    size_t ends = 0;
    std::set<std::pair<int64_t, int64_t>> tracks;
    for (const auto& sample : trace.samples) {
      if (sample.name == "(end)") ++ends;
      tracks.insert({sample.pid, sample.tid});
    }
    EXPECT_EQ(trace.samples.size() - ends, profile.samples.size());
    EXPECT_EQ(ends, tracks.size());
  }
}

TEST(ChromeTraceWriterTest, NamesNeedingJsonEscapes) {
  const std::string text = Preamble("type cpu nanoseconds\n") +
                           "function 1 \"a \\\"quoted\\\" \\\\ name\\n\\ttab\" \"\" \"\" 0\n"
                           "function 2 \"caf\xc3\xa9\\x01\\xff\" \"\" \"\" 0\n"
                           "location 1 - 0x0 - 1:0 2:0\n"
                           "stack 1 1\n"
                           "sample 1 1 1000 500 7 k=\"v\\\"w\"\n";
  const std::string json = Chrome(text);
  const Trace trace(json);
  ASSERT_TRUE(trace.valid) << json;
  std::set<std::string> names;
  for (const auto& [id, name] : trace.frames) names.insert(name);
  // Inlined lines: the caller (line 2's function) outermost.
  EXPECT_EQ(trace.frames.at("1"), "caf\xc3\xa9\x01\\xff");  // a byte JSON cannot carry: \xHH
  EXPECT_EQ(trace.frames.at("2"), "a \"quoted\" \\ name\n\ttab");
  ASSERT_EQ(trace.events.size(), 3u);  // process name, two frames
  EXPECT_EQ(trace.events[2].name, "a \"quoted\" \\ name\n\ttab");
  EXPECT_NE(trace.events[2].args.find("\"k\":\"v\\\"w\""), std::string::npos)
      << trace.events[2].args;
  EXPECT_NE(json.find("\\u0001"), std::string::npos);
}

TEST(ChromeTraceWriterTest, SamplesWithoutTimeAreLaidEndToEnd) {
  CollectingHandler warnings;
  const std::string json = Chrome(StacksProfile({{"main a", 3}, {"main b", 5}, {"main a", 2}}),
                                  &warnings, {{"interval", "1ms"}});
  const Trace trace(json);
  ASSERT_TRUE(trace.valid) << json;
  std::vector<double> starts;
  for (const auto& event : trace.events) {
    if (event.ph == "X" && event.has_args) {
      starts.push_back(event.ts);
      EXPECT_EQ(event.dur, 1000);  // --interval: microseconds
    }
  }
  EXPECT_EQ(starts, (std::vector<double>{0, 1000, 2000}));
  // The samples array weighs by the count (the only type): ts the running sum.
  ASSERT_EQ(trace.samples.size(), 4u);
  EXPECT_EQ(trace.samples[1].ts, 3);
  EXPECT_EQ(trace.samples[2].ts, 8);
  EXPECT_EQ(trace.samples[3].name, "(end)");
  EXPECT_EQ(trace.samples[3].ts, 10);
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].message.find("3 samples without a time"), std::string::npos);
}

TEST(ChromeTraceWriterTest, GuessedDurationsAreCutAtTheNextSample) {
  const std::string text = Preamble("type cpu nanoseconds\n") +
                           "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\n"
                           "sample 1 1 1000000 - 4000000\n"       // 4 ms claimed, next at +1 ms
                           "sample 1 1 2000000 - 4000000\n"       // the last: its own value
                           "sample 1 1 10000000 3000 4000000\n";  // a duration of its own
  CollectingHandler warnings;
  const Trace trace(Chrome(text, &warnings));
  ASSERT_TRUE(trace.valid);
  std::vector<std::pair<double, double>> spans;
  for (const auto& event : trace.events) {
    if (event.ph == "X") spans.push_back({event.ts, event.dur});
  }
  EXPECT_EQ(spans,
            (std::vector<std::pair<double, double>>{{1000, 1000}, {2000, 4000}, {10000, 3}}));
  ASSERT_GE(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].message.find("its cpu value, cut at the next sample"),
            std::string::npos)
      << warnings.warnings[0].message;
}

TEST(ChromeTraceWriterTest, OverlappingSamplesAreMovedNotNested) {
  const std::string text = Preamble("type cpu nanoseconds\n") +
                           "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\n"
                           "sample 1 1 1000 5000 1\n"
                           "sample 1 1 1000 5000 1\n";
  CollectingHandler warnings;
  const Trace trace(Chrome(text, &warnings));
  ASSERT_TRUE(trace.valid);
  ASSERT_EQ(trace.events.size(), 3u);
  EXPECT_EQ(trace.events[1].ts, 1);
  EXPECT_EQ(trace.events[2].ts, 6);  // moved to the end of the first
  EXPECT_NE(trace.events[2].args.find("\"time\":1"), std::string::npos) << trace.events[2].args;
  bool said = false;
  for (const Diagnostic& d : warnings.warnings)
    said |= d.message.find("moved") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(ChromeTraceWriterTest, SeveralSourcesAndThreads) {
  // Two sources, both with pid 7: the second gets a number of its own and says its pid. A
  // thread known by name only gets a tid; labels pid/tid/thread name the tracks, not args.
  const std::string text =
      "proftext 1.0\nsource 1 perf a.txt -\nsource 2 perf b.txt -\n"
      "type samples count\n"
      "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\n"
      "sample 1 1 100 - 1 pid=7 tid=8 comm=app\n"
      "sample 1 1 200 - 1 pid=7 tid=9 thread=worker\n"
      "sample 2 1 300 - 1 pid=7 tid=8 comm=other\n"
      "sample 2 1 400 - 1 thread=named\n";
  const Trace trace(Chrome(text));
  ASSERT_TRUE(trace.valid);
  std::map<std::string, std::string> names;  // "M pid tid" -> name
  std::set<std::pair<int64_t, int64_t>> x_tracks;
  for (const auto& event : trace.events) {
    if (event.ph == "M") {
      names[event.name + " " + std::to_string(event.pid) + " " + std::to_string(event.tid)] =
          event.args;
    } else {
      x_tracks.insert({event.pid, event.tid});
      EXPECT_EQ(event.args.find("pid"), std::string::npos) << event.args;
    }
  }
  EXPECT_EQ(names["process_name 7 8"], "app");
  EXPECT_EQ(names["thread_name 7 8"], "app");
  EXPECT_EQ(names["thread_name 7 9"], "worker");
  EXPECT_EQ(names["process_name 1 8"], "other (pid 7)");
  EXPECT_EQ(names["process_name 2 2"], "b.txt");
  EXPECT_EQ(names["thread_name 2 2"], "named");
  EXPECT_EQ(x_tracks, (std::set<std::pair<int64_t, int64_t>>{{7, 8}, {7, 9}, {1, 8}, {2, 2}}));
}

TEST(ChromeTraceWriterTest, ValueOptionAndWarnings) {
  const std::string text = Preamble("type samples count\ntype cpu nanoseconds\n") +
                           "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\n"
                           "sample 1 1 - - 2 -5 extra=1\n";
  CollectingHandler warnings;
  const Trace trace(Chrome(text, &warnings));  // the default type: the last, cpu
  ASSERT_TRUE(trace.valid);
  EXPECT_EQ(trace.samples[0].name, "cpu");
  EXPECT_EQ(trace.samples[0].weight, 0);  // negative: 0
  std::string all;
  for (const Diagnostic& d : warnings.warnings) all += d.message + "\n";
  EXPECT_NE(all.find("2 value types"), std::string::npos) << all;
  EXPECT_NE(all.find("labels other than"), std::string::npos) << all;
  EXPECT_NE(all.find("negative cpu"), std::string::npos) << all;
  const Trace by_samples(Chrome(text, nullptr, {{"value", "samples"}}));
  EXPECT_EQ(by_samples.samples[0].weight, 2);
  EXPECT_THROW(Chrome(text, nullptr, {{"value", "nosuch"}}), UsageError);
  EXPECT_THROW(Chrome(text, nullptr, {{"interval", "5"}}), UsageError);
}

const char* kCallgrindProfile =
    "proftext 1.0\nsource 1 perf \"\" -\ntype cpu nanoseconds\ntype samples count\n"
    "mapping 1 0x1000 0x2000 0x0 /bin/app \"\" FN\n"
    "function 1 main \"\" app.c 1\nfunction 2 work \"\" app.c 10\nfunction 3 \"a b\" \"\" util.c "
    "5\n"
    "location 1 1 0x1010 - 1:3\nlocation 2 1 0x1020 - 2:12\nlocation 3 1 0x1030 - 3:7 2:14\n"
    "stack 1 1\nstack 2 2 1\nstack 3 3 1\nstack 4 2 3 1\n"
    "sample 1 1 - - 10 1\nsample 1 2 - - 200 20\nsample 1 3 - - 30 3 comm=app\n"
    "sample 1 4 - - 7 1\n";

// prof2callgrind: pprof -callgrind's shape, flat values per node, each edge once per sample.
TEST(CallgrindWriterTest, PprofsShape) {
  CollectingHandler warnings;
  const std::string out = Write(kCallgrindWriter, Parse(kCallgrindProfile), &warnings);
  // Nodes by flat cpu: work:12 (200 + 7), a b (30), main (10), work:14 (0, a frame of the
  // inlined location 3); addresses relative to the last cost line where shorter.
  EXPECT_EQ(out,
            "# callgrind format\npositions: instr line\nevents: cpu(nanoseconds) samples(count)\n"
            "summary: 247 25\n"
            "\nob=(1) /bin/app\nfl=(1) app.c\nfn=(1) work\n0x1020 12 207 21\n"
            "\nob=(1)\nfl=(2) util.c\nfn=(2) a b\n+16 7 30 3\n"
            "cfl=(1)\ncfn=(1)\ncalls=1 -16 12\n* * 7 1\n"
            "\nob=(1)\nfl=(1)\nfn=(3) main\n-32 3 10 1\n"
            "cfl=(1)\ncfn=(1)\ncalls=1 +16 12\n* * 200 20\n"
            "cfl=(1)\ncfn=(1)\ncalls=1 +32 14\n* * 37 4\n"
            "\nob=(1)\nfl=(1)\nfn=(1)\n+32 14 0 0\n"
            "cfl=(2)\ncfn=(2)\ncalls=1 * 7\n* * 37 4\n"
            "\ntotals: 247 25\n");  // summary: and totals: the sums of the cost lines
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_EQ(warnings.warnings[0].message, "1 sample's labels left out (callgrind has no labels)");
}

}  // namespace
}  // namespace writers_test
}  // namespace proftools
