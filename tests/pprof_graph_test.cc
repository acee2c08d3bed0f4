#include "common/report/graph/pprof_graph.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "common/report/graph/pprof_units.h"
#include "common/report/reports.h"
#include "tests/test_util.h"

namespace proftools {
namespace pprof_graph_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(PprofUnits, LabelsInTheReportsUnitAsPprofPrintsThem) {
  EXPECT_EQ(PprofScaledLabel(1100, "milliseconds", "s"), "1.10s");
  EXPECT_EQ(PprofScaledLabel(1000, "milliseconds", "s"), "1s");  // ".00" dropped
  EXPECT_EQ(PprofScaledLabel(10, "milliseconds", "s"), "0.01s");
  EXPECT_EQ(PprofScaledLabel(1, "nanoseconds", "s"), "0");  // too small to show: 0, no unit
  EXPECT_EQ(PprofScaledLabel(65536000, "bytes", "minimum"), "62.50MB");  // powers of 1024
  EXPECT_EQ(PprofScaledLabel(1600, "bytes", "auto"), "1.56kB");
  EXPECT_EQ(PprofScaledLabel(7200000000000, "nanoseconds", "minimum"), "2hrs");
  EXPECT_EQ(PprofScaledLabel(42, "count", "count"), "42");  // no unit shown
  EXPECT_EQ(PprofScaledLabel(42, "instructions", "instructions"), "42instructions");
  EXPECT_EQ(PprofScaledLabel(-1500, "milliseconds", "s"), "-1.50s");
}

TEST(PprofUnits, OutputUnitIsTheSmallestValuesUnlessTheLargestNeedsMore) {
  // 10ms beside a 1.12s total: 100 x 10ms is 1s, so seconds ("0.01s"), as pprof -dot shows.
  EXPECT_EQ(PprofOutputUnit(10, 1120, "milliseconds"), "s");
  // 1ms beside 31ms: both read well in ms.
  EXPECT_EQ(PprofOutputUnit(1, 31, "milliseconds"), "ms");
  EXPECT_EQ(PprofOutputUnit(5, 500, "count"), "count");  // not a unit pprof scales
  EXPECT_EQ(PprofOutputUnit(0, 2048, "bytes"), "kB");    // no value: the total's
}

TEST(PprofUnits, PercentagesWithAtLeastTwoDigits) {
  EXPECT_EQ(PprofPercentage(1100, 1120), "98.21%");
  EXPECT_EQ(PprofPercentage(1120, 1120), "100%");
  EXPECT_EQ(PprofPercentage(10, 1120), "0.89%");
  EXPECT_EQ(PprofPercentage(1, 100000), "0.001%");
  EXPECT_EQ(PprofPercentage(5, 0), "0%");
}

TEST(ShortenFunctionName, PackagesAndNamespacesGo) {
  EXPECT_EQ(ShortenFunctionName("github.com/google/pprof/internal/graph.New"), "graph.New");
  EXPECT_EQ(ShortenFunctionName("example.com/mod/v2/pkg.(*T).M"), "pkg.(*T).M");
  EXPECT_EQ(ShortenFunctionName("java.util.concurrent.ThreadPoolExecutor.runWorker(Foo)"),
            "ThreadPoolExecutor.runWorker");
  EXPECT_EQ(ShortenFunctionName("std::chrono::Clock::now"), "Clock::now");
  EXPECT_EQ(ShortenFunctionName("(anonymous namespace)::Parser::parse"), "Parser::parse");
  EXPECT_EQ(ShortenFunctionName("main"), "main");
  EXPECT_EQ(ShortenFunctionName("std::vector::push_back"), "std::vector::push_back");
}

// main -> a -> b (5), main -> c (3); a's call to b is inlined.
const char* kGraphProfile =
    "proftext 1.0\n"
    "source 1 manual x -\n"
    "type cpu milliseconds\n"
    "function 1 main \"\" main.c 1\n"
    "function 2 a \"\" a.c 1\n"
    "function 3 b \"\" b.c 1\n"
    "function 4 c \"\" c.c 1\n"
    "location 1 - 0x1 - 1:10\n"
    "location 2 - 0x2 - 3:30 2:20\n"
    "location 3 - 0x3 - 4:40\n"
    "stack 1 2 1\n"
    "stack 2 3 1\n"
    "sample 1 1 - - 5 thread=w\n"
    "sample 1 2 - - 3\n";

StackTotals ReadGraphProfile() {
  StackTotals totals(StackTotals::LabelKeying::kExact);
  MemoryStream stream(kGraphProfile);
  ReadText(&stream, "x", &totals);
  return totals;
}

TEST(PprofGraph, NodesEdgesInlineAndEntropyOrder) {
  const StackTotals totals = ReadGraphProfile();
  PprofGraphOptions options;
  options.node_count = 0;
  const PprofGraph graph(totals, options);
  std::vector<std::string> names;
  for (const GraphNode& node : graph.nodes()) {
    names.push_back(graph.info(node).name + " " + std::to_string(node.flat) + "/" +
                    std::to_string(node.cum));
  }
  // pprof's entropy order: main branches out (and is an entry), the leaves b and c, then a,
  // which only passes its value on.
  EXPECT_EQ(names, (std::vector<std::string>{"main 0/8", "b 5/5", "c 3/3", "a 0/5"}));
  std::vector<std::string> edges;
  for (size_t e : graph.SortedEdges()) {
    const GraphEdge& edge = graph.edges()[e];
    edges.push_back(graph.info(graph.nodes()[edge.src]).name + "->" +
                    graph.info(graph.nodes()[edge.dest]).name + " " + std::to_string(edge.weight) +
                    (edge.inlined ? " inline" : "") + (edge.residual ? " residual" : ""));
  }
  EXPECT_EQ(edges, (std::vector<std::string>{"a->b 5 inline", "main->a 5", "main->c 3"}));
  // The label is a tag of the nodes its sample reaches.
  ASSERT_EQ(graph.nodes()[1].label_tags.size(), 1u);
  EXPECT_EQ(graph.nodes()[1].label_tags.begin()->second.name, "thread:w");
  EXPECT_EQ(graph.nodes()[1].label_tags.begin()->second.flat, 5);
}

TEST(PprofGraph, NodeCountDropsPassThroughNodesAndLeavesResidualEdges) {
  const StackTotals totals = ReadGraphProfile();
  PprofGraphOptions options;
  // main, then b with its label box (pprof counts a node's tags as nodes of the picture): c and
  // a go, and main reaches b over a.
  options.node_count = 3;
  const PprofGraph graph(totals, options);
  ASSERT_EQ(graph.nodes().size(), 2u);
  EXPECT_EQ(graph.nodes_before_count(), 4u);
  std::vector<std::string> edges;
  for (size_t e : graph.SortedEdges()) {
    const GraphEdge& edge = graph.edges()[e];
    edges.push_back(graph.info(graph.nodes()[edge.src]).name + "->" +
                    graph.info(graph.nodes()[edge.dest]).name + (edge.residual ? " residual" : "") +
                    (edge.inlined ? " inline" : ""));
  }
  EXPECT_EQ(edges, (std::vector<std::string>{"main->b residual inline"}));
}

TEST(PprofGraph, TheTopNodesAreTheFirstOfTheWholeGraphsOrder) {
  // The top nodes are chosen from an order computed from the edges' weights without the
  // edges (Rank): it must be the order of the whole graph built (node_count 0).
  std::mt19937_64 random(46);
  std::string text = "proftext 1.0\nsource 1 manual x -\ntype cpu milliseconds\n";
  const int functions = 40;
  for (int f = 1; f <= functions; ++f) {
    text += "function " + std::to_string(f) + " f" + std::to_string(f) + " \"\" f.c 1\n";
    text += "location " + std::to_string(f) + " - 0x" + std::to_string(f) + " - " +
            std::to_string(f) + ":" + std::to_string(f) + "\n";
  }
  for (int s = 1; s <= 300; ++s) {
    text += "stack " + std::to_string(s);
    const int depth = 1 + static_cast<int>(random() % 9);
    for (int d = 0; d < depth; ++d) text += " " + std::to_string(1 + random() % functions);
    text +=
        "\nsample 1 " + std::to_string(s) + " - - " + std::to_string(1 + random() % 1000) + "\n";
  }
  StackTotals totals;
  MemoryStream stream(text);
  ReadText(&stream, "x", &totals);
  PprofGraphOptions options;
  options.node_fraction = 0;
  options.edge_fraction = 0;
  options.node_count = 0;
  const PprofGraph whole(totals, options);
  ASSERT_EQ(whole.nodes().size(), static_cast<size_t>(functions));
  for (size_t count : {1, 2, 3, 5, 8, 13, 21, 39}) {
    options.node_count = count;
    const PprofGraph top(totals, options);
    std::set<std::string> expected, chosen;
    for (size_t i = 0; i < count; ++i) expected.insert(whole.info(whole.nodes()[i]).name);
    for (const GraphNode& node : top.nodes()) chosen.insert(top.info(node).name);
    EXPECT_EQ(chosen, expected) << count << " nodes";
  }
}

TEST(PprofGraph, TypesWithValuesInTheSameEntriesShareTheirStacks) {
  // Three types: `samples`, `cpu` with values in the same entries (other values: other nodes
  // kept, other top nodes), `alloc` with values in fewer. Each graph drawn with a share must be
  // the graph drawn alone, and only the types with values in the same entries take the stacks.
  std::mt19937_64 random(44);
  std::string text =
      "proftext 1.0\nsource 1 manual x -\ntype samples count\ntype cpu milliseconds\n"
      "type alloc bytes\n";
  const int functions = 60;
  for (int f = 1; f <= functions; ++f) {
    text += "function " + std::to_string(f) + " f" + std::to_string(f) + " \"\" f.c 1\n";
    text += "location " + std::to_string(f) + " - 0x" + std::to_string(f) + " - " +
            std::to_string(f) + ":" + std::to_string(f) + "\n";
  }
  for (int s = 1; s <= 400; ++s) {
    text += "stack " + std::to_string(s);
    const int depth = 1 + static_cast<int>(random() % 12);
    for (int d = 0; d < depth; ++d) text += " " + std::to_string(1 + random() % functions);
    text += "\n";
    for (int sample = 0; sample < 2; ++sample) {
      const uint64_t count = random() % 4;  // 0: no sample in the types that share
      text += "sample 1 " + std::to_string(s) + " - - " + std::to_string(count) + " " +
              std::to_string(count == 0 ? 0 : 1 + random() % 100) + " " +
              std::to_string(random() % 3 == 0 ? 0 : random() % 5000) +
              (random() % 2 ? " thread=t" + std::to_string(random() % 3) : "") + "\n";
    }
  }
  StackTotals totals(StackTotals::LabelKeying::kExact);
  MemoryStream stream(text);
  ReadText(&stream, "x", &totals);
  for (const size_t node_count : {0, 7, 80}) {
    PprofGraphStacksShare share;
    std::vector<const PprofGraphStacks*> stacks;
    for (int type = 0; type < 3; ++type) {
      ReportOptions options;
      options.node_count = node_count;
      options.value_index = type;
      StringSink alone, shared;
      WriteDotReport(totals, options, &alone);
      WriteDotReport(totals, options, &shared, &share);
      EXPECT_EQ(shared.text(), alone.text()) << "type " << type << ", " << node_count << " nodes";
      stacks.push_back(share.Get().get());
    }
    EXPECT_EQ(stacks[1], stacks[0]) << "cpu has values where samples has: the same stacks";
    EXPECT_NE(stacks[2], stacks[1]) << "alloc has values in other entries: stacks of its own";
  }
}

TEST(DotReport, ResidualEdgesAreDottedAndTheLegendSaysWhatWasLeftOut) {
  const StackTotals totals = ReadGraphProfile();
  ReportOptions options;
  options.node_count = 3;
  options.min_percent = 0.5;
  options.edge_percent = 0.1;
  StringSink out;
  WriteDotReport(totals, options, &out);
  const std::string& dot = out.text();
  EXPECT_NE(dot.find("Showing top 2 nodes out of 4"), std::string::npos) << dot;
  // In the graph of b and main, b (a leaf, 5ms flat) ranks first.
  EXPECT_NE(dot.find("N2 -> N1 [label=\" 5ms\\n (inline)\" weight=63 penwidth=4 color=\"#b21700\" "
                     "tooltip=\"main ... b (5ms)\" labeltooltip=\"main ... b (5ms)\" "
                     "style=\"dotted\"]"),
            std::string::npos)
      << dot;
  // b's label box (a leaf: its cumulative tags).
  EXPECT_NE(dot.find("N1_0 [label = \"thread:w\" id=\"N1_0\" fontsize=8 shape=box3d "
                     "tooltip=\"5ms\"]"),
            std::string::npos)
      << dot;
}

TEST(DotReport, QuotesAndBackslashesInNamesAreEscaped) {
  StackTotals totals(StackTotals::LabelKeying::kExact);
  MemoryStream stream(
      "proftext 1.0\n"
      "source 1 manual x -\n"
      "type samples count\n"
      "function 1 \"say \\\"hi\\\" \\\\ there\" \"\" f.c 1\n"
      "location 1 - 0x1 - 1:1\n"
      "stack 1 1\n"
      "sample 1 1 - - 4 key=\"a\\\"b\"\n");
  ReadText(&stream, "x", &totals);
  StringSink out;
  WriteDotReport(totals, ReportOptions{}, &out);
  EXPECT_NE(out.text().find("label=\"say \\\"hi\\\" \\\\ there\\n4 (100%)\""), std::string::npos)
      << out.text();
  EXPECT_NE(out.text().find("label = \"key:a\\\"b\""), std::string::npos) << out.text();
  EXPECT_EQ(out.text().find("a\"b"), std::string::npos) << out.text();
}

}  // namespace
}  // namespace pprof_graph_test
}  // namespace proftools
