// The Chrome trace reader (common/chrome/): V8 profiles split across ProfileChunk events.
#include <gtest/gtest.h>

#include <string>

#include "tests/chrome_test_util.h"

namespace proftools {
namespace chrome_trace_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Error;
using chrome_test::Lines;
using chrome_test::Read;
using chrome_test::Warnings;

std::string ProfileEvent(int pid, int tid, const std::string& id, int start) {
  return R"j({"ph":"P","name":"Profile","cat":"disabled-by-default-v8.cpu_profiler","pid":)j" +
         std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"id\":\"" + id +
         "\",\"ts\":" + std::to_string(start) +
         ",\"args\":{\"data\":{\"startTime\":" + std::to_string(start) + "}}}";
}

// A chunk: `nodes` as JSON objects, then samples and deltas. Its tid is the sampler thread's.
std::string Chunk(int pid, const std::string& id, int ts, const std::string& nodes,
                  const std::string& samples, const std::string& deltas) {
  return R"j({"args":{"data":{"cpuProfile":{"nodes":[)j" + nodes + "],\"samples\":[" + samples +
         "]},\"timeDeltas\":[" + deltas + R"j(]}},"ph":"P","name":"ProfileChunk","pid":)j" +
         std::to_string(pid) + ",\"tid\":99,\"id\":\"" + id + "\",\"ts\":" + std::to_string(ts) +
         "}";
}

std::string Node(int id, int parent, const std::string& name) {
  return "{\"id\":" + std::to_string(id) +
         (parent ? ",\"parent\":" + std::to_string(parent) : std::string()) +
         ",\"callFrame\":{\"functionName\":\"" + name + "\",\"url\":\"x.js\",\"scriptId\":4," +
         "\"lineNumber\":1,\"columnNumber\":2}}";
}

TEST(ChromeTrace, TheOlderCpuProfileEventIsAProfileOfItsOwn) {
  const std::string trace =
      R"j({"traceEvents":[{"ph":"X","name":"task","pid":1,"tid":2,"ts":100,"dur":9},)j"
      R"j({"ph":"I","name":"CpuProfile","pid":1,"tid":2,"ts":120,"args":{"data":{"cpuProfile":)j"
      R"j({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},)j"
      R"j({"id":2,"callFrame":{"functionName":"f"}}],"startTime":100,"endTime":110,)j"
      R"j("samples":[2,2],"timeDeltas":[3,4]}}}}]})j";
  EXPECT_EQ(Lines(Read(trace), "sample "),
            (std::vector<std::string>{"sample 1 1 103000 4000 1 4 4 pid=1 tid=2",
                                      "sample 1 1 107000 3000 1 3 3 pid=1 tid=2"}));
}

const std::string kRootAndF = Node(1, 0, "(root)") + "," + Node(2, 1, "f");

TEST(ChromeTrace, ChunksJoinTheirProfileByPidAndIdWithTheThreadsName) {
  const std::string trace =
      "{\"traceEvents\":[" + ProfileEvent(10, 11, "0x1", 1000) + "," +
      Chunk(10, "0x1", 1001, kRootAndF, "2,2", "5,5") + "," +
      R"j({"ph":"M","name":"thread_name","pid":10,"tid":11,"args":{"name":"Main Thread"}})j" + "]}";
  EXPECT_EQ(Lines(Read(trace), "sample "),
            (std::vector<std::string>{
                "sample 1 1 1005000 5000 1 5 5 pid=10 tid=11 thread=\"Main Thread\"",
                "sample 1 1 1010000 0 1 0 0 pid=10 tid=11 thread=\"Main Thread\""}));
}

TEST(ChromeTrace, TheSameIdInAnotherProcessIsAnotherProfile) {
  const std::string trace = "[" + ProfileEvent(10, 11, "0x1", 1000) + "," +
                            ProfileEvent(20, 21, "0x1", 2000) + "," +
                            Chunk(20, "0x1", 2001, kRootAndF, "2", "1") + "," +
                            Chunk(10, "0x1", 1001, kRootAndF, "2", "3") + "]";
  EXPECT_EQ(Lines(Read(trace), "sample "),
            (std::vector<std::string>{"sample 1 1 1003000 0 1 0 0 pid=10 tid=11",
                                      "sample 1 1 2001000 0 1 0 0 pid=20 tid=21"}));
}

TEST(ChromeTrace, ChunksOutOfOrderAndNodesOfALaterChunk) {
  // The second chunk (by ts) comes first in the file; the first chunk's samples name node 3,
  // which only the second chunk defines.
  const std::string trace = "[" + Chunk(10, "0x1", 1002, Node(3, 2, "g"), "3", "10") + "," +
                            ProfileEvent(10, 11, "0x1", 1000) + "," +
                            Chunk(10, "0x1", 1001, kRootAndF, "3,2", "1,1") + "]";
  EXPECT_EQ(Lines(Read(trace, "chrome-trace"), "sample "),
            (std::vector<std::string>{"sample 1 1 1001000 1000 1 1 1 pid=10 tid=11",
                                      "sample 1 2 1002000 10000 1 10 10 pid=10 tid=11",
                                      "sample 1 1 1012000 0 1 0 0 pid=10 tid=11"}));
}

TEST(ChromeTrace, AnArrayNeverClosedIsReadUpToItsLastCompleteEventWithAWarning) {
  const std::string complete =
      ProfileEvent(10, 11, "0x1", 1000) + "," + Chunk(10, "0x1", 1001, kRootAndF, "2,2", "5,5");
  for (const std::string& trace :
       {"[" + complete + ",", "[" + complete + ",{\"ph\":\"X\",\"name\":\"cut he",
        "{\"traceEvents\":[" + complete + ",{\"ph\":\"X\",\"args\":{\"a\":[1,"}) {
    Warnings warnings;
    EXPECT_EQ(Lines(Read(trace, "", &warnings), "sample ").size(), 2u) << trace;
    ASSERT_EQ(warnings.messages.size(), 1u) << trace;
    EXPECT_NE(warnings.messages[0].find("read up to its last complete event, which ends at byte " +
                                        std::to_string(trace.find(complete) + complete.size())),
              std::string::npos)
        << warnings.messages[0];
  }
  EXPECT_NE(Error("[{\"ph\":\"X\"").find("before its first event is complete"), std::string::npos);
}

TEST(ChromeTrace, DurationEventsAreSamplesWithTheirSelfTimeWhenThereIsNoCpuProfile) {
  const std::string trace =
      R"j([{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"main"}},)j"
      R"j({"ph":"B","name":"outer","pid":1,"tid":2,"ts":10},)j"
      R"j({"ph":"X","name":"inner","pid":1,"tid":2,"ts":12,"dur":3.5},)j"
      R"j({"ph":"E","pid":1,"tid":2,"ts":20},{"ph":"E","pid":1,"tid":2,"ts":21},)j"
      R"j({"ph":"B","name":"never","pid":1,"tid":3,"ts":30},)j"
      R"j({"ph":"X","name":"solo","pid":1,"tid":3,"ts":31,"dur":1},)j"
      R"j({"ph":"i","name":"mark","pid":1,"tid":3,"ts":31.5,"s":"t"},)j"
      R"j({"ph":"X","pid":1,"tid":3,"ts":40}])j";
  Warnings warnings;
  const std::string text = Read(trace, "", &warnings);
  // `never` is closed at its thread's last time (40, the nameless X's), around solo, mark
  // (inside solo) and the nameless X at its very end.
  EXPECT_EQ(
      Lines(text, "sample "),
      (std::vector<std::string>{
          "sample 1 1 10000 10000 1 6500 pid=1 tid=2 thread=main",
          "sample 1 2 12000 3500 1 3500 pid=1 tid=2 thread=main",
          "sample 1 3 30000 10000 1 9000 pid=1 tid=3", "sample 1 4 31000 1000 1 1000 pid=1 tid=3",
          "sample 1 5 31500 0 1 0 pid=1 tid=3", "sample 1 6 40000 0 1 0 pid=1 tid=3"}));
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1", "stack 2 2 1", "stack 3 3", "stack 4 4 3",
                                      "stack 5 5 4 3", "stack 6 6 3"}));
  EXPECT_EQ(Lines(text, "function 6"),
            (std::vector<std::string>{"function 6 \"(no name)\" \"\" \"\" 0"}));
  // Each at the byte where its event starts.
  EXPECT_EQ(warnings.messages,
            (std::vector<std::string>{"in.json: byte 218: 1 E event with no B open on its thread, "
                                      "ignored",
                                      "in.json: byte 253: 1 B event never closed by an E: each "
                                      "closed at its thread's last time in the trace"}));
}

TEST(ChromeTrace, OverlappingSpansAreCutAtTheEndOfTheSpanAroundThem) {
  // inner (5-15) runs past outer (0-10): cut at 10; the thread's total is its span, 10.
  const std::string trace = R"j([{"ph":"X","name":"outer","pid":1,"tid":1,"ts":0,"dur":10},)j"
                            R"j({"ph":"X","name":"inner","pid":1,"tid":1,"ts":5,"dur":10}])j";
  Warnings warnings;
  const std::string text = Read(trace, "", &warnings);
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 0 10000 1 5000 pid=1 tid=1",
                                      "sample 1 2 5000 5000 1 5000 pid=1 tid=1"}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("cut at that end"), std::string::npos);
}

TEST(ChromeTrace, AtOneInstantEndsGoBeforeBeginsButASpanOfNoLengthStaysWhole) {
  // At 5 the E of a is listed after b's B; x's B and E at 7 are a span of no length.
  const std::string trace = R"j([{"ph":"B","name":"a","pid":1,"tid":1,"ts":0},)j"
                            R"j({"ph":"B","name":"b","pid":1,"tid":1,"ts":5},)j"
                            R"j({"ph":"E","pid":1,"tid":1,"ts":5},)j"
                            R"j({"ph":"B","name":"x","pid":1,"tid":1,"ts":7},)j"
                            R"j({"ph":"E","name":"x","pid":1,"tid":1,"ts":7},)j"
                            R"j({"ph":"E","pid":1,"tid":1,"ts":9}])j";
  Warnings warnings;
  const std::string text = Read(trace, "", &warnings);
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{"sample 1 1 0 5000 1 5000 pid=1 tid=1",
                                      "sample 1 2 5000 4000 1 4000 pid=1 tid=1",
                                      "sample 1 3 7000 0 1 0 pid=1 tid=1"}));
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1", "stack 2 2", "stack 3 3 2"}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(ChromeTrace, HermesStringTimesAndThreadDurations) {
  const std::string trace = R"j([{"ph":"X","name":"s","pid":1,"tid":1,"ts":"1.5","dur":"2"},)j"
                            R"j({"ph":"X","name":"t","pid":1,"tid":1,"ts":10,"tdur":3}])j";
  EXPECT_EQ(Lines(Read(trace), "sample "),
            (std::vector<std::string>{"sample 1 1 1500 2000 1 2000 pid=1 tid=1",
                                      "sample 1 2 10000 3000 1 3000 pid=1 tid=1"}));
  EXPECT_NE(Error(R"j([{"ph":"X","name":"s","pid":1,"tid":1,"ts":"soon","dur":1}])j")
                .find("ts: 'soon' where a time in microseconds belongs"),
            std::string::npos);
}

// The sampled form: stackFrames (parents by id, given after their children here) and samples.
const std::string kStackFrames =
    R"j("stackFrames":{"7":{"category":"libc.so","name":"leaf","parent":"5"},)j"
    R"j("5":{"category":"app","name":"main"},"9":{"name":"other","parent":5}})j";

TEST(ChromeTrace, StackFramesAndSamplesAreStackSamplesWithTimes) {
  const std::string trace =
      R"j({"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"tid":2,)j"
      R"j("args":{"name":"worker"}},{"ph":"X","name":"task","pid":1,"tid":2,"ts":1,"dur":9}],)j" +
      kStackFrames +
      R"j(,"samples":[{"cpu":0,"tid":2,"ts":1000.5,"name":"cycles:HG","sf":7,"weight":3},)j"
      R"j({"tid":3,"ts":1001,"sf":"9"},{"pid":4,"tid":2,"ts":1002,"stackFrame":"5"}]})j";
  const std::string text = Read(trace);
  EXPECT_EQ(Lines(text, "type "),
            (std::vector<std::string>{"type samples count", "type weight count"}));
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{
                "sample 1 1 1000500 - 1 3 tid=2 thread=worker cpu=0 event=cycles:HG",
                "sample 1 2 1001000 - 1 1 tid=3", "sample 1 3 1002000 - 1 1 pid=4 tid=2"}));
  EXPECT_EQ(Lines(text, "stack "),
            (std::vector<std::string>{"stack 1 1 2", "stack 2 3 2", "stack 3 2"}));
}

// prof2chrome writes each sample twice (X events, and the sampled form for speedscope, each
// track ended by a zero-weight sample without sf) and says so in otherData: its X events are read.
TEST(ChromeTrace, ProfToChromeOutputIsReadByItsDurationEvents) {
  const std::string events =
      R"j({"traceEvents":[{"ph":"X","name":"task","pid":1,"tid":2,"ts":1,"dur":9}],)j" +
      kStackFrames +
      R"j(,"samples":[{"tid":2,"ts":1,"sf":7,"weight":9},{"tid":2,"ts":10,"weight":0}])j";
  EXPECT_EQ(Lines(Read(events + R"j(,"otherData":{"producer":"proftools"}})j"), "sample "),
            (std::vector<std::string>{"sample 1 1 1000 9000 1 9000 pid=1 tid=2"}));
  // Without the mark the sampled form is the profile; the end marker counts nothing.
  EXPECT_EQ(Lines(Read(events + "}"), "sample "),
            (std::vector<std::string>{"sample 1 1 1000 - 1 9 tid=2"}));
}

TEST(ChromeTrace, AFractionOfNineteenDigitsIsReadRight) {
  // simdjson 3.0.1's get_number() reads such a number as 0.
  EXPECT_EQ(Lines(Read(R"j([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1.000000000000000000,)j"
                       R"j("dur":1234567890123456.789e-15}])j"),
                  "sample "),
            (std::vector<std::string>{"sample 1 1 1000 1235 1 1235 pid=1 tid=1"}));
}

TEST(ChromeTrace, StackSamplesNamingMissingFramesOrCyclesAreErrors) {
  const auto trace = [](const std::string& frames, const std::string& samples) {
    return R"j({"traceEvents":[],"stackFrames":{)j" + frames + R"j(},"samples":[)j" + samples +
           "]}";
  };
  EXPECT_NE(Error(trace(R"j("1":{"name":"a"})j", R"j({"tid":1,"ts":1,"sf":2})j"))
                .find("a sample's sf 2 is not among the stackFrames"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a","parent":"3"})j", R"j({"tid":1,"ts":1,"sf":1})j"))
                .find("a stack frame's parent 3 is not among the stackFrames"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a","parent":"2"},"2":{"name":"b","parent":"1"})j",
                        R"j({"tid":1,"ts":1,"sf":1})j"))
                .find("the parents of stack frame 1 form a cycle"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a","parent":"1"})j", R"j({"tid":1,"ts":1,"sf":1})j"))
                .find("form a cycle"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a"})j", R"j({"tid":1,"sf":1})j")).find("no ts"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a"})j", R"j({"tid":1,"ts":1})j")).find("no sf"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":7})j", R"j({"tid":1,"ts":1,"sf":1})j"))
                .find("a number where a string belongs"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a"})j", R"j([[[[[[[[[[{"ts":1,"sf":1}]]]]]]]]]])j"))
                .find("an array where an object belongs"),
            std::string::npos);
  EXPECT_NE(Error(trace(R"j("1":{"name":"a"})j", R"j({"tid":1,"ts":9223372036854775808,"sf":1})j"))
                .find("beyond what 64-bit nanoseconds hold"),
            std::string::npos);
}

TEST(ChromeTrace, BadInputIsAnErrorNamingTheByte) {
  // (A trace cut after a complete event is read up to it: the test above.)
  for (const std::string bad :
       {"[{\"ph\":", "[{\"ph\":\"X\",\"name\":5}]", "[[[[[[[[[[1]]]]]]]]]]"}) {
    const std::string message = Error(bad, "chrome-trace");
    EXPECT_EQ(message.rfind("in.json: byte ", 0), 0u) << bad << ": " << message;
  }
  // No sample resolves: refused (a part that does is read, with a warning: issue 43).
  const std::string missing = "[" + Chunk(10, "0x1", 1001, kRootAndF, "7,7", "1,1") + "]";
  EXPECT_NE(Error(missing).find("samples[0]: node 7 is not among the nodes: no sample"),
            std::string::npos);
  Warnings warnings;
  const std::string partial = "[" + Chunk(10, "0x1", 1001, kRootAndF, "2,7", "1,1") +
                              R"j(,{"ph":"P","name":"ProfileChunk","pid":10,"id":"0x1","ts":2})j" +
                              "]";
  EXPECT_EQ(Lines(Read(partial, "", &warnings), "sample ").size(), 1u);
  ASSERT_EQ(warnings.messages.size(), 2u);
  EXPECT_NE(warnings.messages[0].find("1 of 2 samples left out"), std::string::npos);
  EXPECT_NE(warnings.messages[1].find("1 profile event without args.data"), std::string::npos);
  const std::string self = "[" + Chunk(10, "0x1", 1001, Node(1, 1, "f"), "1", "1") + "]";
  EXPECT_NE(Error(self).find("node 1 is its own parent"), std::string::npos);
  EXPECT_NE(Error(R"j([{"ph":"X","name":"a","pid":1,"tid":1,"ts":9223372036854775808}])j")
                .find("beyond what 64-bit nanoseconds hold"),
            std::string::npos);
  EXPECT_NE(Error(R"j([{"ph":"X","name":"a","pid":1,"tid":1,"ts":9223372036854775.807}])j")
                .find("beyond what 64-bit nanoseconds hold"),
            std::string::npos);
  EXPECT_NE(Error(R"j([{"ph":"P","name":"ProfileChunk","pid":"x","id":1}])j").find("pid"),
            std::string::npos);
  EXPECT_NE(Error(R"j({"traceEvents":[{"ph":"C","name":"a","ts":1}]})j")
                .find("without V8 CPU profile samples (Profile and ProfileChunk events"),
            std::string::npos);
}

TEST(ChromeTrace, Prof2ChromesOwnOutputComesBackWithItsValuesAndLabels) {
  // The innermost event of a column holds the sample's values and labels (a number, a number
  // with its unit, a string, a key given twice) and its own time when it was moved.
  const std::string trace =
      R"j({"traceEvents":[)j"
      R"j({"ph":"X","cat":"proftools","name":"main","pid":1,"tid":1,"ts":10,"dur":5},)j"
      R"j({"ph":"X","cat":"proftools","name":"f","pid":1,"tid":1,"ts":10,"dur":5,"sf":2,)j"
      R"j("args":{"time":8,"values":{"samples/count":3,"cpu/nanoseconds":7000},)j"
      R"j("labels":{"n":4,"alloc":"64 bytes","op":"read","k":[1,"x"]}}}],)j"
      R"j("otherData":{"producer":"proftools","weight":"cpu/nanoseconds"}})j";
  const std::string text = Read(trace);
  EXPECT_EQ(Lines(text, "type "),
            (std::vector<std::string>{"type samples count", "type cpu nanoseconds"}));
  EXPECT_EQ(Lines(text, "default_type "), (std::vector<std::string>{"default_type cpu"}));
  EXPECT_EQ(Lines(text, "sample "),
            (std::vector<std::string>{
                "sample 1 1 8000 5000 3 7000 pid=1 tid=1 n=4 alloc=64:bytes op=read k=1 k=x"}));
  // f (location 1, numbered by first use) inside main.
  EXPECT_EQ(Lines(text, "stack "), (std::vector<std::string>{"stack 1 1 2"}));
  EXPECT_EQ(Lines(text, "function "),
            (std::vector<std::string>{"function 1 f \"\" \"\" 0", "function 2 main \"\" \"\" 0"}));
}

}  // namespace
}  // namespace chrome_trace_test
}  // namespace proftools
