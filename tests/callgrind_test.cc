// The callgrind reader and writer (common/callgrind/): the format's examples (cl-format.xml),
// name compression, relative subpositions, calls and their inclusive cost lines, recursion
// levels, cycles, totals, every kind of bad input and the sniffer. prof2callgrind's writer is
// tested in writers_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/callgrind/callgrind_codec.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/model/call_graph.h"
#include "common/model/checker.h"
#include "common/model/interner.h"
#include "common/model/sink.h"
#include "tests/chrome_test_util.h"

namespace proftools {
namespace callgrind_test {  // a namespace of its own: the tests build as one unit
namespace {

using chrome_test::Lines;
using chrome_test::Warnings;

Profile ReadBytes(const std::string& bytes, Warnings* warnings = nullptr) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(bytes), "in.callgrind");
  ProfileBuilder builder;
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(&builder, &throw_on_violation, input.name);
  ReadOptions options;
  options.format = "callgrind";
  options.warnings = warnings;
  ReadProfile(input, &checked, options);
  return builder.Take();
}

std::string Error(const std::string& bytes) {
  try {
    ReadBytes(bytes);
  } catch (const ProfError& e) {
    return e.diagnostic().Format();
  }
  return "";
}

// Sums of one value type by the leaf frame's function (flat) and by stack as "a;b;c" (outermost
// first).
std::map<std::string, int64_t> Flat(const Profile& profile, size_t type) {
  std::map<std::string, int64_t> flat;
  for (const Sample& sample : profile.samples) {
    const Stack* stack = profile.defs.stacks.Find(sample.stack_id);
    const Location* leaf = profile.defs.locations.Find(stack->location_ids.front());
    if (sample.values[type] == 0) continue;
    flat[profile.defs.functions.Find(leaf->lines[0].function_id)->name] += sample.values[type];
  }
  return flat;
}

std::map<std::string, int64_t> ByStack(const Profile& profile, size_t type) {
  std::map<std::string, int64_t> stacks;
  for (const Sample& sample : profile.samples) {
    const Stack* stack = profile.defs.stacks.Find(sample.stack_id);
    std::string path;
    for (auto it = stack->location_ids.rbegin(); it != stack->location_ids.rend(); ++it) {
      const Location* location = profile.defs.locations.Find(*it);
      path += (path.empty() ? "" : ";") +
              profile.defs.functions.Find(location->lines[0].function_id)->name;
    }
    if (sample.values[type] != 0) stacks[path] += sample.values[type];
  }
  return stacks;
}

// cl-format.xml's extended example: main calls func1 once and func2 3 times, func1 calls func2
// twice.
const char* kExtended =
    "# callgrind format\nevents: Instructions\n\nfl=file1.c\nfn=main\n16 20\ncfn=func1\n"
    "calls=1 50\n16 400\ncfi=file2.c\ncfn=func2\ncalls=3 20\n16 400\n\nfn=func1\n51 100\n"
    "cfi=file2.c\ncfn=func2\ncalls=2 20\n51 300\n\nfl=file2.c\nfn=func2\n20 700\n";

// The same with name compression.
const char* kCompressed =
    "# callgrind format\nevents: Instructions\n\nfl=(1) file1.c\nfn=(1) main\n16 20\n"
    "cfn=(2) func1\ncalls=1 50\n16 400\ncfi=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n\n"
    "fn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\n\nfl=(2)\nfn=(3)\n20 700\n";

TEST(CallgrindReader, TheSpecsExtendedExampleSelfCostsCallsAndStacks) {
  const Profile profile = ReadBytes(kExtended);
  ASSERT_EQ(profile.header.types.size(), 2u);
  EXPECT_EQ(profile.header.types[0], (ValueType{"Instructions", "count"}));
  EXPECT_EQ(profile.header.types[1], (ValueType{"calls", "count"}));
  EXPECT_EQ(profile.header.default_type, "Instructions");
  EXPECT_EQ(Flat(profile, 0),
            (std::map<std::string, int64_t>{{"main", 20}, {"func1", 100}, {"func2", 700}}));
  // Called: func1 once, func2 3 + 2 times.
  EXPECT_EQ(Flat(profile, 1), (std::map<std::string, int64_t>{{"func1", 1}, {"func2", 5}}));
  // func2's 700 split as its callers' inclusive costs say: 400 under main, 300 under func1.
  EXPECT_EQ(
      ByStack(profile, 0),
      (std::map<std::string, int64_t>{
          {"main", 20}, {"main;func1", 100}, {"main;func1;func2", 300}, {"main;func2", 400}}));
  EXPECT_EQ(ByStack(profile, 1),
            (std::map<std::string, int64_t>{
                {"main;func1", 1}, {"main;func1;func2", 2}, {"main;func2", 3}}));
  const Function* func2 = nullptr;
  for (const Function& f : profile.defs.functions.items()) {
    if (f.name == "func2") func2 = &f;
  }
  ASSERT_NE(func2, nullptr);
  EXPECT_EQ(func2->file, "file2.c");
}

TEST(CallgrindReader, NameCompressionReadsAsTheNames) {
  const Profile plain = ReadBytes(kExtended);
  const Profile compressed = ReadBytes(kCompressed);
  EXPECT_EQ(ByStack(plain, 0), ByStack(compressed, 0));
  EXPECT_EQ(ByStack(plain, 1), ByStack(compressed, 1));
  // Objects, files and functions have separate id spaces: (1) is a file and a function.
  const Profile spaces = ReadBytes(
      "events: Ir\nob=(1) a.out\nfl=(1) x.c\nfn=(1) x\n1 5\ncob=(2) lib.so\n"
      "cfi=(2) y.c\ncfn=(2) y\ncalls=2 1\n1 7\nob=(2)\nfl=(2)\nfn=(2)\n1 7\n");
  EXPECT_EQ(ByStack(spaces, 0), (std::map<std::string, int64_t>{{"x", 5}, {"x;y", 7}}));
  // A function without a name is valgrind's unknown code, ??? (found by the fuzzer: prof text's
  // functions have names).
  EXPECT_EQ(Flat(ReadBytes("events: Ir\nfn=\n1 5\n"), 0),
            (std::map<std::string, int64_t>{{"???", 5}}));
  ASSERT_EQ(spaces.defs.mappings.size(), 2u);
  EXPECT_EQ(spaces.defs.mappings.items()[1].file, "lib.so");
}

TEST(CallgrindReader, RelativeSubpositionsAndHexAddresses) {
  // cl-format.xml's subposition compression example: both spellings are the same costs.
  const Profile profile = ReadBytes(
      "# callgrind format\npositions: instr line\nevents: ticks\nfn=func\n0x80001234 90 1\n"
      "+3 * 5\n+1 +1 6\n-2 -1 0x10\n");
  EXPECT_EQ(Flat(profile, 0), (std::map<std::string, int64_t>{{"func", 28}}));
  EXPECT_EQ(Error("positions: instr line\nevents: ticks\nfn=f\n0x10 5 1\n+ 1 2\n"),
            "in.callgrind:5: not a subposition: '+'");
}

TEST(CallgrindReader, RecursionLevelsAreOneFunctionAndCyclesEnd) {
  // callgrind --separate-recs: fact'2 is fact; main -> fact (1 call) -> fact'2 (11 calls).
  const Profile profile = ReadBytes(
      "events: Ir\nfn=main\n1 10\ncfn=fact\ncalls=1 5\n2 120\nfn=fact\n5 10\ncfn=fact'2\n"
      "calls=1 5\n6 110\nfn=fact'2\n5 110\ncfn=fact'2\ncalls=10 5\n6 100\n");
  EXPECT_EQ(Flat(profile, 0), (std::map<std::string, int64_t>{{"main", 10}, {"fact", 120}}));
  EXPECT_EQ(Flat(profile, 1), (std::map<std::string, int64_t>{{"fact", 12}}));
  EXPECT_EQ(ByStack(profile, 0),
            (std::map<std::string, int64_t>{{"main", 10}, {"main;fact", 120}}));
  // a -> b -> a: the cycle is not expanded again, each self cost is kept.
  const Profile cycle = ReadBytes(
      "events: Ir\nfn=main\n1 1\ncfn=a\ncalls=1 1\n1 111\nfn=a\n1 10\ncfn=b\ncalls=1 1\n1 101\n"
      "fn=b\n1 1\ncfn=a\ncalls=1 1\n1 100\n");
  EXPECT_EQ(Flat(cycle, 0), (std::map<std::string, int64_t>{{"main", 1}, {"a", 10}, {"b", 1}}));
  EXPECT_EQ(Flat(cycle, 1), (std::map<std::string, int64_t>{{"a", 2}, {"b", 1}}));
}

TEST(CallgrindReader, SeveralEventsHeaderLabelsAndMeta) {
  const Profile profile = ReadBytes(
      "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd:  ./a.out x\n"
      "part: 1\nthread: 3\ndesc: I1 cache: 32768 B\nevent: Ir : Instruction Fetches\n"
      "positions: line\nevents: Ir Dr Mystery\nsummary: 9 2 0\nfn=f\n1 5 2\n2 4\ntotals: 9 2\n");
  ASSERT_EQ(profile.header.types.size(), 3u);  // no calls: no calls type
  EXPECT_EQ(profile.header.types[2], (ValueType{"Mystery", "count"}));
  EXPECT_EQ(profile.header.meta,
            (std::vector<MetaEntry>{{"cmd", "./a.out x"}, {"creator", "callgrind-3.19.0"}}));
  ASSERT_EQ(profile.samples.size(), 1u);
  EXPECT_EQ(profile.samples[0].values, (std::vector<int64_t>{9, 2, 0}));
  EXPECT_EQ(profile.samples[0].labels,
            (std::vector<Label>{Label::Number("pid", 42), Label::String("thread", "3")}));
}

TEST(CallgrindReader, TotalsThatDisagreeAreWarnedAbout) {
  Warnings warnings;
  ReadBytes("events: Ir Dr\nfn=f\n1 5 2\ntotals: 6 2\nsummary: 4 2\n", &warnings);
  EXPECT_EQ(warnings.messages,
            (std::vector<std::string>{
                "in.callgrind: totals: says 6 2 but the cost lines sum to 5 2 (the values read "
                "are the cost lines')",
                "in.callgrind: summary: 4 2 is less than the cost lines' sum (the values read are "
                "the cost lines')"}));
  Warnings none;
  ReadBytes("events: Ir\nsummary: 7\nfn=f\n1 5\ntotals: 5\n", &none);
  EXPECT_TRUE(none.messages.empty());
}

TEST(CallgrindReader, BadInputIsLocated) {
  EXPECT_EQ(Error("events: Ir\nfn=f\ncfn=g\ncalls=1 2\nfn=g\n1 2\n"),
            "in.callgrind:5: a calls= line (line 4) must be followed by the cost line of the call");
  EXPECT_EQ(Error("events: Ir\nfn=f\ncfn=g\ncalls=1 2\n"),
            "in.callgrind:4: the file ends after a calls= line (line 4): the cost line of the "
            "call is missing");
  EXPECT_EQ(Error("events: Ir\nfn=(3)\n1 2\n"),
            "in.callgrind:2: name (3) used before it is defined");
  EXPECT_EQ(Error("events: Ir\nfn=(3) a\nfn=(3) b\n"),
            "in.callgrind:3: name (3) defined again as 'b', was 'a'");
  EXPECT_EQ(Error("positions: line\nevents: Ir\nfn=f\n1 2 3\n"),
            "in.callgrind:4: 2 costs on a line but 1 event (events:): the positions: line and "
            "the cost columns disagree");
  EXPECT_EQ(Error("positions: instr line\nevents: Ir\nfn=f\n1\n"),
            "in.callgrind:4: a position list needs 2 subpositions (positions: instr line)");
  EXPECT_EQ(Error("fn=f\n1 2\n"), "in.callgrind:1: fn= before the events: line");
  EXPECT_EQ(Error("events: Ir\n1 2\n"), "in.callgrind:2: a cost line before any fn= line");
  EXPECT_EQ(Error("events: Ir\nfn=f\ncalls=1 2\n1 2\n"),
            "in.callgrind:3: calls= without a cfn= line naming the function called");
  EXPECT_EQ(Error("events: Ir\nfn=f\n1 x\n"), "in.callgrind:3: not a cost: 'x' (a number)");
  EXPECT_EQ(Error("events: Ir\nfn=f\n1 99999999999999999999\n"),
            "in.callgrind:3: not a cost: '99999999999999999999' (a number)");
  EXPECT_EQ(Error("events: Ir\nfn=f\nbogus line\n"),
            "in.callgrind:3: not a line of the callgrind format: 'bogus line'");
  EXPECT_EQ(Error("events: Ir\nfn=f\n1 2\nevents: Dr\n"),
            "in.callgrind:4: events: differs from an earlier part's");
  EXPECT_EQ(Error("version: 2\nevents: Ir\n"),
            "in.callgrind:1: version: '2' (this reader knows 0 and 1)");
  EXPECT_EQ(Error("# callgrind format\ncreator: x\n"),
            "in.callgrind: no events: line: not a callgrind or cachegrind profile");
  EXPECT_EQ(Error("events: Ir\n"),
            "in.callgrind: a callgrind profile without cost lines (--allow-empty reads it as a "
            "profile without samples)");
}

TEST(CallgrindReader, Sniffer) {
  EXPECT_EQ(SniffCallgrind("# callgrind format\nversion: 1\n", true), kCertain);
  EXPECT_EQ(SniffCallgrind("desc: I1 cache: 1\ncmd: ./a\nevents: Ir\nfl=a.c\n", true), kLikely);
  EXPECT_EQ(SniffCallgrind("positions: instr line\nevents: cpu(ms)\n\nob=\n", true), kLikely);
  EXPECT_EQ(SniffCallgrind("cmd: ./a\nfl=a.c\nevents: Ir\n", true), kNotMine);
  EXPECT_EQ(SniffCallgrind("main;f 10\n", true), kNotMine);
  EXPECT_EQ(SniffCallgrind("# callgrind format\n", false), kNotMine);
}

// The samples' first values summed, and their stacks' longest and frames in all.
struct StackSums {
  int64_t first_values = 0;
  size_t longest = 0;
  uint64_t frames = 0;
};
StackSums SumStacks(const Profile& profile) {
  StackSums sums;
  for (const Sample& sample : profile.samples) {
    sums.first_values += sample.values[0];
    const size_t depth = profile.defs.stacks.Find(sample.stack_id)->location_ids.size();
    sums.longest = std::max(sums.longest, depth);
    sums.frames += depth;
  }
  return sums;
}

// A deep chain and a wide fan: the tree stays within its bounds and every cost is kept.
TEST(CallgrindReader, ExpansionIsBounded) {
  std::string deep = "events: Ir\n";
  const int kDepth = 1000;
  for (int i = 0; i < kDepth; ++i) {
    deep += "fn=f" + std::to_string(i) + "\n1 1\n";
    if (i + 1 < kDepth) {
      deep += "cfn=f" + std::to_string(i + 1) + "\ncalls=1 1\n1 " + std::to_string(kDepth - i - 1) +
              "\n";
    }
  }
  Warnings warnings;
  const Profile profile = ReadBytes(deep, &warnings);
  const StackSums sums = SumStacks(profile);
  EXPECT_EQ(sums.first_values, kDepth);
  EXPECT_EQ(sums.longest, CallGraph::kMaxDepth);
  EXPECT_EQ(Flat(profile, 0).size(), static_cast<size_t>(kDepth));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("was cut at 256 frames"), std::string::npos);
}

// A ladder: 300 layers of two functions, each calling both of the next layer, 2^299 paths. The
// tree stops at negligible shares and at its frames in all, well inside the interner's limit
// (which its 200,000 nodes, most of them 256 deep, passed before: the file was refused), and
// every cost is still kept.
TEST(CallgrindReader, DenseGraphsStayWithinTheFramesBound) {
  std::string ladder = "events: Ir\n";
  const int kLayers = 300;
  const int64_t kCost = int64_t{1} << 40;
  const auto name = [](int layer, int side) {
    return "f" + std::to_string(layer) + (side == 0 ? "a" : "b");
  };
  for (int layer = 0; layer < kLayers; ++layer) {
    for (int side = 0; side < 2; ++side) {
      // Costs large enough to be spread over every place of a function.
      ladder += "fn=" + name(layer, side) + "\n1 " + std::to_string(kCost) + "\n";
      for (int next = 0; layer + 1 < kLayers && next < 2; ++next) {
        ladder += "cfn=" + name(layer + 1, next) + "\ncalls=1000000 1\n1 " +
                  std::to_string(kCost * (kLayers - layer - 1)) + "\n";
      }
    }
  }
  Warnings warnings;
  const Profile profile = ReadBytes(ladder, &warnings);
  const StackSums sums = SumStacks(profile);
  EXPECT_EQ(sums.first_values, 2 * kLayers * kCost);
  // The tree's frames, and a root of one frame for each function it did not reach.
  EXPECT_LE(sums.frames, CallGraph::kMaxFrames + 2 * kLayers);
  EXPECT_EQ(Flat(profile, 0).size(), static_cast<size_t>(2 * kLayers));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("4194304 frames in all"), std::string::npos);
}

// Gives `builder` the header a call graph's reader gives: one source, `types`.
void StartProfile(ProfileBuilder* builder, std::vector<ValueType> types) {
  ProfileHeader header;
  header.sources.push_back(Source{1, "test", "", std::nullopt});
  header.types = std::move(types);
  builder->OnHeader(header);
}

TEST(CallGraph, AnEdgeAddedAsNewIsFoundByALaterAddCall) {
  CallGraph graph(1);
  const uint32_t f = graph.FunctionAt("f", "a.py", 1);
  const uint32_t h = graph.FunctionAt("h", "a.py", 5);
  EXPECT_EQ(graph.FunctionAt("f", "a.py", 1), f);
  EXPECT_NE(graph.FunctionAt("f", "a.py", 2), f);  // another first line, another function
  graph.AddSelf(f, {10});
  graph.AddSelf(h, {5});
  graph.AddNewCall(f, h, 2, {5});
  graph.AddCall(f, h, 3, {0});     // the same edge, through the index built when needed
  graph.AddNewCall(h, h, 4, {0});  // a call to itself: folded into h
  graph.Seal();
  EXPECT_THROW(graph.FunctionAt("g", "a.py", 9), std::logic_error);
  EXPECT_THROW(graph.AddCall(h, f, 1, {1}), std::logic_error);
  ProfileBuilder builder;
  StartProfile(&builder, {{"time", "nanoseconds"}, {"calls", "count"}});
  Interner interner(&builder);
  EXPECT_FALSE(graph.Emit(&interner, &builder, 1, true, {}));
  builder.OnEnd();
  const Profile profile = builder.Take();
  // f alone (its self time), then h under f: its time, its 5 calls from f and 4 of its own.
  ASSERT_EQ(profile.samples.size(), 2u);
  EXPECT_EQ(profile.samples[0].values, (std::vector<int64_t>{10, 0}));
  EXPECT_EQ(profile.defs.stacks.Find(profile.samples[1].stack_id)->location_ids.size(), 2u);
  EXPECT_EQ(profile.samples[1].values, (std::vector<int64_t>{5, 9}));
}

TEST(CallGraph, NodesOfOneContentAreOneStack) {
  // Two functions of one location ("" is named "???" as "???" is): the tree's two nodes under
  // f are one stack, as interning by content made them, and every stack is defined once.
  CallGraph graph(1);
  const uint32_t f = graph.FunctionAt("f", "a.py", 1);
  const uint32_t unnamed = graph.FunctionAt("", "b.py", 3);
  const uint32_t named = graph.FunctionAt("???", "b.py", 3);
  ASSERT_NE(unnamed, named);
  graph.AddSelf(f, {1});
  graph.AddSelf(unnamed, {2});
  graph.AddSelf(named, {4});
  graph.AddCall(f, unnamed, 1, {2});
  graph.AddCall(f, named, 1, {4});
  ProfileBuilder builder;
  StartProfile(&builder, {{"time", "nanoseconds"}});
  Interner interner(&builder);
  EXPECT_FALSE(graph.Emit(&interner, &builder, 1, false, {}));
  builder.OnEnd();
  const Profile profile = builder.Take();
  ASSERT_EQ(profile.samples.size(), 3u);
  EXPECT_EQ(profile.defs.stacks.size(), 2u);
  EXPECT_EQ(profile.samples[1].stack_id, profile.samples[2].stack_id);
  EXPECT_EQ(profile.samples[1].values[0] + profile.samples[2].values[0], 6);
  // The interner gave the stacks as new: interning one by content now is a caller's error; the
  // graph let its edges go and is spent.
  EXPECT_THROW(interner.Stack({1}), std::logic_error);
  EXPECT_THROW(graph.Emit(&interner, &builder, 1, false, {}), std::logic_error);
  EXPECT_THROW(graph.AddCall(f, named, 1, {1}), std::logic_error);
}

// The profile `graph` makes, its one type time (the tree not cut).
Profile TimeProfile(CallGraph* graph) {
  ProfileBuilder builder;
  StartProfile(&builder, {{"time", "nanoseconds"}});
  Interner interner(&builder);
  EXPECT_FALSE(graph->Emit(&interner, &builder, 1, false, {}));
  builder.OnEnd();
  return builder.Take();
}

// Each node of the tree is a stack of its own where no two functions share a location and no
// caller calls a callee by two edges; where either may happen the nodes are numbered by
// content. Both such cases are one stack here.
TEST(CallGraph, TwoEdgesOfOneCallerAndCalleeMakeOneStack) {
  CallGraph graph(1);
  const uint32_t f = graph.FunctionAt("f", "a.py", 1);
  const uint32_t h = graph.FunctionAt("h", "a.py", 5);
  graph.AddSelf(h, {6});
  graph.AddNewCall(f, h, 1, {2});
  graph.AddNewCall(f, h, 2, {4});  // the caller's promise broken: a second edge
  const Profile profile = TimeProfile(&graph);
  ASSERT_EQ(profile.samples.size(), 2u);
  EXPECT_EQ(profile.defs.stacks.size(), 1u);
  EXPECT_EQ(profile.samples[0].stack_id, profile.samples[1].stack_id);
  EXPECT_EQ(profile.samples[0].values[0] + profile.samples[1].values[0], 6);
}

TEST(CallGraph, AFunctionOfNoObjectIsAFunctionAtOfLineZero) {
  CallGraph graph(1);
  const uint32_t f = graph.Function("", "f", "a.c");
  const uint32_t g = graph.Function("", "g", "a.c");
  const uint32_t g_at = graph.FunctionAt("g", "a.c", 0);
  ASSERT_NE(g, g_at);
  graph.AddSelf(g, {1});
  graph.AddSelf(g_at, {2});
  graph.AddCall(f, g, 1, {1});
  graph.AddCall(f, g_at, 1, {2});
  const Profile profile = TimeProfile(&graph);
  ASSERT_EQ(profile.samples.size(), 2u);
  EXPECT_EQ(profile.defs.stacks.size(), 1u);
  EXPECT_EQ(profile.samples[0].stack_id, profile.samples[1].stack_id);
}

TEST(CallGraph, AnInternerWithStacksInternsTheTreesByContent) {
  CallGraph graph(1);
  const uint32_t f = graph.FunctionAt("f", "a.py", 1);
  graph.AddSelf(f, {1});
  ProfileBuilder builder;
  StartProfile(&builder, {{"time", "nanoseconds"}});
  Interner interner(&builder);
  proftools::Location location;
  location.address = 0x10;
  const uint64_t stack = interner.Stack({interner.Location(location)});
  EXPECT_FALSE(graph.Emit(&interner, &builder, 1, false, {}));
  builder.OnEnd();
  const Profile profile = builder.Take();
  ASSERT_EQ(profile.samples.size(), 1u);
  EXPECT_NE(profile.samples[0].stack_id, stack);
  EXPECT_EQ(interner.stack_count(), 2u);
  EXPECT_THROW(interner.NewStack({1}), std::logic_error);
}

}  // namespace
}  // namespace callgrind_test
}  // namespace proftools
