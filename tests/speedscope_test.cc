// speedscope's file format: the reader (speedscope/speedscope_codec: evented profiles as stretches
// with TIME and DURATION, sampled ones with their weights, units, the errors speedscope's own
// importer gives, located) and the writer (speedscope/speedscope_writer: sampled and evented
// forms, threads as profiles, frames, and a file that reads back as the same samples), and
// TrackRecords, the writer's spool.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/base/units.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/model/definitions.h"
#include "common/speedscope/speedscope_writer.h"
#include "common/speedscope/track_records.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace speedscope_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::CollectingHandler;
using testing::MemorySource;
using testing::Parse;

constexpr const char* kSchema = R"("$schema":"https://www.speedscope.app/file-format-schema.json")";

Profile Read(const std::string& json, CollectingHandler* warnings = nullptr) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(json), "in.json");
  ProfileBuilder builder;
  ReadOptions options;
  options.format = "speedscope";
  options.warnings = warnings;
  options.allow_empty = true;
  ReadProfile(input, &builder, options);
  return builder.Take();
}

std::string ReadError(const std::string& json) {
  try {
    Read(json);
  } catch (const ProfError& e) {
    return e.diagnostic().file + ": " + e.diagnostic().message;
  }
  return "(no error)";
}

// A sample's stack as function names, root first, joined by ';'.
std::string StackNames(const Profile& p, const Sample& s) {
  std::string names;
  const Stack* stack = p.defs.stacks.Find(s.stack_id);
  for (auto id = stack->location_ids.rbegin(); id != stack->location_ids.rend(); ++id) {
    for (auto line = p.defs.locations.Find(*id)->lines.rbegin();
         line != p.defs.locations.Find(*id)->lines.rend(); ++line) {
      names += (names.empty() ? "" : ";") + p.defs.functions.Find(line->function_id)->name;
    }
  }
  return names;
}

// One evented profile of frames a, b over `events` ({"type":..} objects), in milliseconds.
std::string Evented(const std::string& events, const std::string& extra = "") {
  return std::string("{") + kSchema +
         R"(,"shared":{"frames":[{"name":"a","file":"a.c","line":3,"col":2},{"name":"b"}]},)" +
         R"("profiles":[{"type":"evented","name":"T","unit":"milliseconds","startValue":0,)" +
         R"("endValue":100)" + extra + R"(,"events":[)" + events + "]}]}";
}

TEST(SpeedscopeReaderTest, EventedProfileIsOneSamplePerStretchWithFramesOpen) {
  const Profile p = Read(Evented(
      R"({"type":"O","frame":0,"at":1},{"type":"O","frame":1,"at":2},{"type":"C","frame":1,"at":4.5},)"
      R"({"type":"C","frame":0,"at":5},{"type":"O","frame":1,"at":9},{"type":"C","frame":1,"at":9},)"
      R"({"type":"O","frame":1,"at":10},{"type":"C","frame":1,"at":11})"));
  ASSERT_EQ(p.header.types.size(), 1u);
  EXPECT_EQ(p.header.types[0].type, "time");
  EXPECT_EQ(p.header.types[0].unit, "nanoseconds");
  ASSERT_EQ(p.samples.size(), 4u);  // the gap 5..9 and the empty stretch at 9 are none
  const struct {
    const char* stack;
    int64_t time, duration;
  } expected[] = {{"a", 1000000, 1000000},
                  {"a;b", 2000000, 2500000},
                  {"a", 4500000, 500000},
                  {"b", 10000000, 1000000}};
  for (size_t i = 0; i < 4; ++i) {
    const Sample& s = p.samples[i];
    EXPECT_EQ(StackNames(p, s), expected[i].stack) << i;
    EXPECT_EQ(s.time_nanos, expected[i].time) << i;
    EXPECT_EQ(s.duration_nanos, expected[i].duration) << i;
    EXPECT_EQ(s.values, std::vector<int64_t>{expected[i].duration}) << i;
    ASSERT_EQ(s.labels.size(), 1u);
    EXPECT_EQ(s.labels[0].key, "thread");
    EXPECT_EQ(s.labels[0].str, "T");
  }
  // The frame's file, line and column.
  const Function& a = p.defs.functions.items()[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.file, "a.c");
  EXPECT_EQ(a.start_line, 3);
  EXPECT_EQ(p.defs.locations.items()[0].lines[0].line, 3);
  EXPECT_EQ(p.defs.locations.items()[0].lines[0].column, 2);
}

TEST(SpeedscopeReaderTest, SampledProfilesKeepWeightsUnitsAndTheActiveProfilesType) {
  const Profile p = Read(std::string("{\"profiles\":[") +
                         R"({"type":"sampled","name":"x","unit":"bytes","startValue":0,)"
                         R"("endValue":3,"samples":[[0,1],[]],"weights":[3,4]},)"
                         R"({"samples":[[1]],"weights":[1.5],"type":"sampled","name":"y",)"
                         R"("unit":"microseconds","startValue":0,"endValue":1}],)"
                         R"("activeProfileIndex":1,"name":"group","exporter":"me@1",)"
                         R"("shared":{"frames":[{"name":"a"},{"name":"b"}]},)" +
                         kSchema + "}");
  ASSERT_EQ(p.header.types.size(), 2u);
  EXPECT_EQ(p.header.types[0].type, "space");
  EXPECT_EQ(p.header.types[1].type, "time");
  EXPECT_EQ(p.header.default_type, "time");
  ASSERT_EQ(p.header.meta.size(), 2u);
  EXPECT_EQ(p.header.meta[0].key, "speedscope.name");
  EXPECT_EQ(p.header.meta[1].value, "me@1");
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(StackNames(p, p.samples[0]), "a;b");
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{3, 0}));
  EXPECT_EQ(StackNames(p, p.samples[1]), "");
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{4, 0}));
  EXPECT_FALSE(p.samples[1].time_nanos);
  EXPECT_EQ(p.samples[2].values, (std::vector<int64_t>{0, 1500}));
  EXPECT_EQ(p.samples[2].labels[0].str, "y");
}

TEST(SpeedscopeReaderTest, SpeedscopesOwnErrorsAreErrorsAtTheirByte) {
  // Closing a frame that is not on top.
  const std::string not_on_top = Evented(
      R"({"type":"O","frame":0,"at":1},{"type":"O","frame":1,"at":2},{"type":"C","frame":0,"at":3})");
  // The byte is the event's own "{", counted from 1.
  const size_t event = not_on_top.find(R"({"type":"C")") + 1;
  EXPECT_EQ(ReadError(not_on_top),
            "in.json: byte " + std::to_string(event) +
                ": profiles[0].events[2]: closes frame 0 (\"a\") while frame 1 (\"b\") is on top "
                "(speedscope: tried to leave a frame that was not at the top)");
  // `at` going backwards.
  EXPECT_NE(ReadError(Evented(R"({"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":4})"))
                .find("events[1]: at goes backwards"),
            std::string::npos);
  // Before startValue.
  EXPECT_NE(ReadError(Evented(R"({"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":6})",
                              R"(,"startValue":7)"))
                .find("before the profile's startValue"),
            std::string::npos);
  // Frames left open, a close with none open, a frame not among the shared ones.
  EXPECT_NE(ReadError(Evented(R"({"type":"O","frame":0,"at":5})")).find("1 frame is still open"),
            std::string::npos);
  EXPECT_NE(ReadError(Evented(R"({"type":"C","frame":0,"at":5})")).find("while no frame is open"),
            std::string::npos);
  EXPECT_NE(ReadError(Evented(R"({"type":"O","frame":7,"at":5})"))
                .find("frame 7 is not among the 2 shared frames"),
            std::string::npos);
  EXPECT_NE(ReadError(Evented(R"({"type":"X","frame":0,"at":5})")).find("an event's type \"X\""),
            std::string::npos);
  // Sampled: a weight per sample, a unit of speedscope's.
  const std::string sampled =
      std::string("{") + kSchema + R"(,"shared":{"frames":[{"name":"a"}]},)";
  EXPECT_NE(ReadError(sampled + R"("profiles":[{"type":"sampled","name":"","unit":"none",)"
                                R"("samples":[[0],[0]],"weights":[1]}]})")
                .find("2 samples but 1 weight"),
            std::string::npos);
  EXPECT_NE(ReadError(sampled + R"("profiles":[{"type":"sampled","name":"","unit":"hours",)"
                                R"("samples":[],"weights":[]}]})")
                .find("unit \"hours\""),
            std::string::npos);
  EXPECT_NE(ReadError(R"({"$schema":"https://example.com/other.json","profiles":[],)"
                      R"("shared":{"frames":[]}})")
                .find("not speedscope's"),
            std::string::npos);
  EXPECT_NE(ReadError(std::string("{") + kSchema + R"(,"shared":{"frames":[]},"profiles":[)")
                .find("byte "),
            std::string::npos);
  // Times before 0 have no place in prof text.
  EXPECT_NE(ReadError(Evented(R"({"type":"O","frame":0,"at":-5},{"type":"C","frame":0,"at":6})",
                              R"(,"startValue":-10)"))
                .find("before time 0"),
            std::string::npos);
}

TEST(SpeedscopeReaderTest, FractionsAreRoundedWithAWarning) {
  CollectingHandler warnings;
  const Profile p = Read(Evented(R"({"type":"O","frame":0,"at":0.0000001},)"
                                 R"({"type":"C","frame":0,"at":0.0000034})"),
                         &warnings);
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].values[0], 3);  // 0.1 ns .. 3.4 ns
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].message.find("2 weights or times were not a whole number"),
            std::string::npos);
}

std::string Write(const Profile& profile, CollectingHandler* warnings = nullptr,
                  const std::string& value = "") {
  MemorySource source(profile);
  StringSink out;
  WriteContext context;
  if (!value.empty()) context.options["value"] = value;
  CollectingHandler ignored;
  context.warnings = warnings != nullptr ? warnings : &ignored;
  kSpeedscopeWriter.write(source, &out, context);
  return out.text();
}

const char* const kTimedProfile =
    "proftext 1.0\n"
    "source 1 manual t -\n"
    "type samples count\n"
    "type wall nanoseconds\n"
    "function 1 main \"\" main.c 1\n"
    "function 2 work \"\" work.c 10\n"
    "location 1 - 0x0 - 1:5\n"
    "location 2 - 0x0 - 2:12:4\n"
    "stack 1 1\n"
    "stack 2 2 1\n"
    "sample 1 2 1000 500 1 500 thread=one\n"
    "sample 1 1 1000 250 1 250 thread=two\n"
    "sample 1 2 1500 500 1 500 thread=one\n"
    "sample 1 1 3000 100 1 100 thread=one\n";

TEST(SpeedscopeWriterTest, TimedThreadsAreEventedAndReadBackAsTheSameSamples) {
  CollectingHandler warnings;
  const std::string json = Write(Parse(kTimedProfile), &warnings);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(root["$schema"]),
            "https://www.speedscope.app/file-format-schema.json");
  simdjson::dom::array frames = root["shared"]["frames"];
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(std::string_view(frames.at(0)["name"]), "main");
  EXPECT_EQ(int64_t(frames.at(1)["line"]), 12);
  EXPECT_EQ(int64_t(frames.at(1)["col"]), 4);
  EXPECT_EQ(std::string_view(frames.at(1)["file"]), "work.c");
  simdjson::dom::array profiles = root["profiles"];
  ASSERT_EQ(profiles.size(), 2u);
  EXPECT_EQ(std::string_view(profiles.at(0)["type"]), "evented");
  EXPECT_EQ(std::string_view(profiles.at(0)["name"]), "one");
  EXPECT_EQ(std::string_view(profiles.at(0)["unit"]), "nanoseconds");
  EXPECT_EQ(int64_t(profiles.at(0)["startValue"]), 1000);
  EXPECT_EQ(int64_t(profiles.at(0)["endValue"]), 3100);
  // main;work 1000..1500, again 1500..2000 (work closed and opened again), main 3000..3100.
  std::string events;
  for (simdjson::dom::object e : profiles.at(0)["events"].get_array()) {
    events += std::string(std::string_view(e["type"])) + std::to_string(int64_t(e["frame"])) + "@" +
              std::to_string(int64_t(e["at"])) + " ";
  }
  EXPECT_EQ(events, "O0@1000 O1@1000 C1@1500 O1@1500 C1@2000 C0@2000 O0@3000 C0@3100 ");
  EXPECT_TRUE(warnings.warnings.size() == 1) << "one warning: the samples type is not written";

  // Read back: the same stacks, times, durations and wall values per thread.
  const Profile back = Read(json);
  ASSERT_EQ(back.samples.size(), 4u);
  std::vector<std::string> got;
  for (const Sample& s : back.samples) {
    got.push_back(s.labels[0].str + " " + StackNames(back, s) + " " +
                  std::to_string(*s.time_nanos) + "+" + std::to_string(*s.duration_nanos) + " " +
                  std::to_string(s.values[0]));
  }
  EXPECT_EQ(got,
            (std::vector<std::string>{"one main;work 1000+500 500", "one main;work 1500+500 500",
                                      "one main 3000+100 100", "two main 1000+250 250"}));
}

TEST(SpeedscopeWriterTest, OtherProfilesAreSampledWeighedByTheChosenType) {
  CollectingHandler warnings;
  // --value samples: a count, not the durations: sampled.
  const std::string json = Write(Parse(kTimedProfile), &warnings, "samples");
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  simdjson::dom::object one = root["profiles"].at(0);
  EXPECT_EQ(std::string_view(one["type"]), "sampled");
  EXPECT_EQ(std::string_view(one["unit"]), "none");
  EXPECT_EQ(simdjson::minify(one["samples"]), "[[0,1],[0,1],[0]]");
  EXPECT_EQ(simdjson::minify(one["weights"]), "[1,1,1]");
  EXPECT_EQ(int64_t(one["endValue"]), 3);
  bool said = false;
  for (const Diagnostic& d : warnings.warnings) {
    said = said || d.message.find("4 samples with a time in 2 threads") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_THROW(Write(Parse(kTimedProfile), nullptr, "nosuch"), UsageError);
}

// The frames a sample's stack has in speedscope: a line each, a location without lines one.
size_t FrameCount(const Profile& p, const Sample& s) {
  size_t n = 0;
  for (const uint64_t id : p.defs.stacks.Find(s.stack_id)->location_ids) {
    n += std::max<size_t>(1, p.defs.locations.Find(id)->lines.size());
  }
  return n;
}

// Any profile, written and read back weighed by its default type (--value: every thread by
// it): each sample comes back with as many frames and its value of that type as its weight
// (negative ones 0), when the type's unit is a plain number (a memory unit comes back in bytes,
// a time in nanoseconds). Random names hold bytes JSON cannot carry, so frames are counted here;
// the tests above compare names.
TEST(SpeedscopeWriterTest, RandomProfilesReadBackWithTheirWeightsAndDepths) {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    testing::RandomProfileGenerator generator(seed);
    const Profile profile = generator.Next();
    const int type = profile.header.DefaultTypeIndex();
    const Profile back = Read(Write(profile, nullptr, profile.header.types[type].type));
    const std::string& unit = profile.header.types[type].unit;
    const bool plain = LookUpUnit(unit).dimension == nullptr || unit == "count";
    std::vector<std::pair<size_t, int64_t>> want, got;
    for (const Sample& s : profile.samples) {
      want.emplace_back(FrameCount(profile, s), plain ? std::max<int64_t>(0, s.values[type]) : 0);
    }
    for (const Sample& s : back.samples) {
      int64_t value = 0;
      for (const int64_t v : s.values) value += v;  // one type has it
      got.emplace_back(FrameCount(back, s), plain ? value : 0);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << "seed " << seed;
  }
}

TEST(TrackRecordsTest, InterleavedTracksReadBackTrackByTrackInOrder) {
  TrackRecords records("test", 2);
  const auto track_of = [](int64_t i) { return static_cast<uint32_t>(i % 7 == 0 ? 2 : i % 3); };
  for (int64_t i = 0; i < 100000; ++i) {
    const int64_t record[2] = {i, -i};
    records.Add(track_of(i), record);
  }
  records.Finish();
  int64_t total = 0;
  for (uint32_t t = 0; t < 3; ++t) {
    for (int pass = 0; pass < 2; ++pass) {  // a track reads the same again
      int64_t last = -1;
      uint64_t n = 0;
      records.ForEach(t, [&](const int64_t* r) {
        EXPECT_GT(r[0], last);
        EXPECT_EQ(r[1], -r[0]);
        EXPECT_EQ(track_of(r[0]), t);
        last = r[0];
        ++n;
      });
      EXPECT_EQ(n, records.count(t));
      if (pass == 0) total += static_cast<int64_t>(n);
    }
  }
  EXPECT_EQ(total, 100000);
}

}  // namespace
}  // namespace speedscope_test
}  // namespace proftools
