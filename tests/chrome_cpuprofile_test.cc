// The .cpuprofile reader (common/chrome/): times, weights, names and every kind of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/chrome_test_util.h"

namespace proftools {
namespace chrome_cpuprofile_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Error;
using chrome_test::Lines;
using chrome_test::Read;

// (root) -> main (a.js line 3) -> anonymous (a.js 5:7), and (idle) under the root.
const char* kNodes =
    R"j("nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"",)j"
    R"j("lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2,4]},)j"
    R"j({"id":2,"callFrame":{"functionName":"main","scriptId":"3","url":"a.js",)j"
    R"j("lineNumber":2,"columnNumber":0},"hitCount":1,"children":[3]},)j"
    R"j({"id":3,"callFrame":{"functionName":"","scriptId":"3","url":"a.js",)j"
    R"j("lineNumber":4,"columnNumber":6},"hitCount":2},)j"
    R"j({"id":4,"callFrame":{"functionName":"(idle)","scriptId":"0","url":"",)j"
    R"j("lineNumber":-1,"columnNumber":-1},"hitCount":1}])j";

std::string Profile(const std::string& rest) {
  return "{" + std::string(kNodes) + "," + rest + "}";
}

// The first test's samples and functions (the legacy form's test reads the same).
const std::vector<std::string> kFirstSamples = {
    "sample 1 1 1010000 20000 1 20 20", "sample 1 2 1030000 30000 1 30 30",
    "sample 1 3 1060000 15000 1 0 15", "sample 1 2 1075000 25000 1 25 25"};
const std::vector<std::string> kFirstFunctions = {"function 1 main \"\" a.js 3",
                                                  "function 2 \"(anonymous a.js:5:7)\" \"\" a.js 5",
                                                  "function 3 (idle) \"\" \"\" 0"};

TEST(ChromeCpuProfile, EachSampleWeighsTheIntervalToTheNextOneIdleIsNotCpu) {
  const std::string text = Read(Profile(R"j("startTime":1000,"endTime":1100,"samples":[2,3,4,3],)j"
                                        R"j("timeDeltas":[10,20,30,15])j"));
  // Times: 1010, 1030, 1060, 1075 us; intervals 20, 30, 15, then 25 to endTime.
  EXPECT_EQ(Lines(text, "sample "), kFirstSamples);
  // (root) is no frame; lines 1-based; the anonymous function named where it is.
  EXPECT_EQ(Lines(text, "function "), kFirstFunctions);
  EXPECT_EQ(Lines(text, "location 2"), (std::vector<std::string>{"location 2 - 0x0 - 2:5:7"}));
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1", "stack 2 2 1", "stack 3 3"}));
  EXPECT_EQ(Lines(text, "default_type"), (std::vector<std::string>{"default_type cpu"}));
}

TEST(ChromeCpuProfile, WithoutEndTimeTheLastSampleWeighsNothing) {
  const std::string text =
      Read(Profile(R"j("startTime":1000,"samples":[2,3],"timeDeltas":[10,20])j"));
  EXPECT_EQ(Lines(text, "sample "), (std::vector<std::string>{"sample 1 1 1010000 20000 1 20 20",
                                                              "sample 1 2 1030000 0 1 0 0"}));
}

TEST(ChromeCpuProfile, NegativeDeltasPutSamplesInTimeOrderFirst) {
  // Times 1010, 1005, 1030: the second sample came first.
  const std::string text = Read(Profile(R"j("startTime":1000,"endTime":1040,"samples":[2,3,2],)j"
                                        R"j("timeDeltas":[10,-5,25])j"));
  EXPECT_EQ(Lines(text, "sample "), (std::vector<std::string>{"sample 1 1 1005000 5000 1 5 5",
                                                              "sample 1 2 1010000 20000 1 20 20",
                                                              "sample 1 2 1030000 10000 1 10 10"}));
}

TEST(ChromeCpuProfile, NodesMayNameTheirParentInsteadOfChildren) {
  const std::string text =
      Read(R"j({"nodes":[{"id":7,"parent":5,"callFrame":{"functionName":"leaf"}},)j"
           R"j({"id":5,"callFrame":{"functionName":"(root)"}}],"startTime":0,"endTime":2,)j"
           R"j("samples":[7],"timeDeltas":[1]})j",
           "cpuprofile");
  EXPECT_EQ(Lines(text, "sample "), (std::vector<std::string>{"sample 1 1 1000 1000 1 1 1"}));
}

TEST(ChromeCpuProfile, AHundredThousandLevelsDeepIsNoProblem) {
  std::string json = R"j({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}})j";
  const int kDepth = 100000;
  for (int i = 2; i <= kDepth; ++i) {
    json += ",{\"id\":" + std::to_string(i) + ",\"parent\":" + std::to_string(i - 1) +
            ",\"callFrame\":{\"functionName\":\"f" + std::to_string(i % 7) + "\"}}";
  }
  json += R"j(],"startTime":0,"endTime":5,"samples":[100000,50000],"timeDeltas":[1,1]})j";
  const std::string text = Read(json, "cpuprofile");
  const std::vector<std::string> stacks = Lines(text, "stack ");
  ASSERT_EQ(stacks.size(), 2u);
  // "stack ID" then a location for each level but the root's.
  EXPECT_EQ(std::count(stacks[0].begin(), stacks[0].end(), ' '), 1 + kDepth - 1);
}

// Every error names the input and a byte, never crashes or hangs.
void ExpectError(const std::string& json, const std::string& part) {
  const std::string message = Error(json, "cpuprofile");
  EXPECT_EQ(message.rfind("in.json: byte ", 0), 0u) << message;
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

// The legacy form (V8 before 2016, Node <= 10's inspector exports): a tree nested under head,
// 1-based lines in the nodes' own fields, ids after the children, startTime and endTime in
// seconds, absolute `timestamps` in microseconds.
const char* kLegacyHead =
    R"j({"head":{"functionName":"(root)","url":"","lineNumber":0,"hitCount":0,"children":[)j"
    R"j({"functionName":"main","url":"a.js","lineNumber":3,"columnNumber":1,"hitCount":1,)j"
    R"j("children":[{"functionName":"","url":"a.js","lineNumber":5,"columnNumber":7,)j"
    R"j("hitCount":2,"children":[],"id":3}],"id":2},)j"
    R"j({"functionName":"(idle)","url":"","lineNumber":0,"hitCount":1,"children":[],"id":4}],)j"
    R"j("id":1})j";

TEST(ChromeCpuProfile, TheLegacyFormReadsAsTheCurrentOne) {
  // The same profile as the first test's, in the legacy form: the same samples.
  const std::string text = Read(std::string(kLegacyHead) +
                                R"j(,"startTime":0.001,"endTime":0.0011,"samples":[2,3,4,3],)j"
                                R"j("timestamps":[1010,1030,1060,1075]})j");
  EXPECT_EQ(Lines(text, "sample "), kFirstSamples);
  EXPECT_EQ(Lines(text, "function "), kFirstFunctions);
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1", "stack 2 2 1", "stack 3 3"}));
}

TEST(ChromeCpuProfile, LegacySamplesWithoutTimestampsAreSpreadEvenlyWithAWarning) {
  chrome_test::Warnings warnings;
  const std::string text =
      Read(std::string(kLegacyHead) + R"j(,"startTime":1,"endTime":1.0004,"samples":[2,3,4,3]})j",
           "", &warnings);
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{
                "sample 1 1 1000000000 100000 1 100 100", "sample 1 2 1000100000 100000 1 100 100",
                "sample 1 3 1000200000 100000 1 0 100", "sample 1 2 1000300000 100000 1 100 100"}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("spread evenly"), std::string::npos);
}

TEST(ChromeCpuProfile, LegacyFormErrors) {
  const std::string head(kLegacyHead);
  ExpectError(head + R"j(,"startTime":1,"samples":[2,3],"timestamps":[1]})j",
              "2 samples but 1 timestamps");
  ExpectError(head + R"j(,"samples":[2,3]})j", "no `timestamps` and no startTime");
  ExpectError(head + R"j(,"startTime":1,"endTime":2})j", "without `samples`");
  ExpectError(head + R"j(,"head":{"id":9},"samples":[],"timestamps":[]})j", "a second head");
  ExpectError(R"j({"head":{"functionName":"f","children":[{"functionName":"g"}],"id":1},)j"
              R"j("samples":[1],"timestamps":[1]})j",
              "a node without an id");
  // Seconds: 10^10 s fits in 64-bit nanoseconds, 10^11 s does not.
  ExpectError(head + R"j(,"startTime":100000000000,"samples":[2],"timestamps":[1]})j",
              "startTime: 100000000000 seconds (the legacy form's unit) is beyond");
  // `timestamps` belong to the legacy form only.
  ExpectError(Profile(R"j("startTime":1,"samples":[2],"timestamps":[1])j"), "only the legacy form");
}

TEST(ChromeCpuProfile, TimesAreExactDecimalsNotDoubles) {
  // 0.1 s and 1700000000.123456789 s: a double would be 1 ns off in the second.
  const std::string text =
      Read(std::string(kLegacyHead) + R"j(,"startTime":1700000000.123456789,"samples":[2],)j"
                                      R"j("timestamps":[1700000000123457]})j");
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 1700000000123457000 0 1 0 0"}));
  // Exponents (valid JSON numbers) read as doubles.
  const std::string exponent =
      Read(Profile(R"j("startTime":1.5e3,"endTime":2e3,"samples":[2],"timeDeltas":[0])j"));
  EXPECT_EQ(Lines(exponent, "sample "),
            (std::vector<std::string>{"sample 1 1 1500000 500000 1 500 500"}));
}

TEST(ChromeCpuProfile, ACutProfileKeepsWhatResolvesWithOneWarning) {
  // Sample 1 names node 9, absent; node 5's parent 8 is absent (so are node 6's, under it);
  // node 2 lists a child 7 no node is (issue 43).
  chrome_test::Warnings warnings;
  const std::string text =
      Read(R"j({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},)j"
           R"j({"id":2,"callFrame":{"functionName":"main"},"children":[7]},)j"
           R"j({"id":5,"parent":8,"callFrame":{"functionName":"lost"}},)j"
           R"j({"id":6,"parent":5,"callFrame":{"functionName":"below"}}],)j"
           R"j("startTime":0,"endTime":50,"samples":[2,9,5,6,2],"timeDeltas":[0,10,10,10,10]})j",
           "", &warnings);
  EXPECT_EQ(Lines(text, "sample "), (std::vector<std::string>{"sample 1 1 0 10000 1 10 10",
                                                              "sample 1 1 40000 10000 1 10 10"}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("3 of 5 samples left out"), std::string::npos)
      << warnings.messages[0];
  EXPECT_NE(warnings.messages[0].find("1 child id that no node has, ignored"), std::string::npos)
      << warnings.messages[0];
}

TEST(ChromeCpuProfile, BadInputIsAnErrorNamingTheByte) {
  const std::string good = Profile(R"j("startTime":1,"samples":[2],"timeDeltas":[1])j");
  for (size_t cut : {size_t{1}, size_t{40}, good.size() / 2, good.size() - 1}) {
    const std::string message = Error(good.substr(0, cut), "cpuprofile");
    EXPECT_EQ(message.rfind("in.json: byte ", 0), 0u) << cut << ": " << message;
  }
  ExpectError(
      R"j({"nodes":[{"id":1,"callFrame":{"functionName":5}}],"samples":[],"timeDeltas":[]})j",
      "a number where a string belongs");
  ExpectError(Profile(R"j("startTime":1,"samples":[[[[[[[[[[2]]]]]]]]]],"timeDeltas":[1])j"),
              "an array where a number belongs");
  // A broken array (simdjson cannot go on after counting it; the fuzzer found a crash there).
  ExpectError(Profile(R"j("startTime":1,"samples":[2,2,],"timeDeltas":[1,1])j"), "samples");
  ExpectError(Profile(R"j("startTime":1,"samples":[2,2],"timeDeltas":[1,1,]"x":1)j"), "timeDeltas");
  // Nothing resolves: refused (one sample resolving is read: the next test).
  ExpectError(Profile(R"j("startTime":1,"samples":[9,9],"timeDeltas":[1,1])j"),
              "samples[0]: node 9 is not among the nodes: no sample of the profile resolves");
  ExpectError(Profile(R"j("startTime":9223372036854775808,"samples":[2],"timeDeltas":[1])j"),
              "beyond what 64-bit nanoseconds hold");
  ExpectError(Profile(R"j("startTime":9223372036854775,"samples":[2],"timeDeltas":[1])j"),
              "beyond what 64-bit nanoseconds hold");
  ExpectError(Profile(R"j("startTime":1,"samples":[2,3],"timeDeltas":[1])j"),
              "2 samples but 1 timeDeltas");
  ExpectError(R"j({"nodes":[{"id":1,"parent":1,"callFrame":{"functionName":"f"}}],)j"
              R"j("samples":[1],"timeDeltas":[1]})j",
              "node 1 is its own parent");
  ExpectError(R"j({"nodes":[{"id":1,"parent":2,"callFrame":{"functionName":"f"}},)j"
              R"j({"id":2,"parent":1,"callFrame":{"functionName":"g"}}],)j"
              R"j("samples":[1],"timeDeltas":[1]})j",
              "cycle");
  ExpectError(R"j({"nodes":[{"id":1,"children":[2],"callFrame":{}},)j"
              R"j({"id":3,"children":[2],"callFrame":{}},{"id":2,"callFrame":{}}],)j"
              R"j("samples":[2],"timeDeltas":[1]})j",
              "node 2 has two parents");
  ExpectError(Profile(R"j("startTime":1,"samples":[2],"timeDeltas":[-5])j"), "before 0");
  EXPECT_NE(
      Error(R"j({"nodes":[],"samples":[],"timeDeltas":[]})j", "cpuprofile").find("without samples"),
      std::string::npos);
}

}  // namespace
}  // namespace chrome_cpuprofile_test
}  // namespace proftools
