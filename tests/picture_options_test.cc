// prof-svg's and prof-html's options and how they combine (common/cli/svg_report.h,
// common/cli/html_page.h), reached without running the programs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/cli/html_page.h"
#include "common/cli/svg_report.h"

namespace proftools {
namespace picture_options_test {  // a namespace of its own: the tests build as one unit
namespace {

// The plan prof-svg (`Add` AddSvgReportOptions, `Parse` ParseSvgReportOptions) or prof-html
// makes of `words`, an input appended when there is none.
template <typename Plan, typename Add, typename Parse>
Plan PlanOf(const char* program, Add add, Parse parse, std::vector<std::string> words,
            bool add_input = true) {
  CommandLine cli(program, "[OPTION...] [FILE...]", "test");
  add(&cli);
  words.insert(words.begin(), program);
  // An input, so that a terminal on stdin does not matter.
  if (add_input) words.push_back("in.prof");
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(&word[0]);
  EXPECT_TRUE(cli.Parse(static_cast<int>(argv.size()), argv.data()));
  return parse(cli);
}

SvgReportPlan Svg(std::vector<std::string> words) {
  return PlanOf<SvgReportPlan>("prof-svg", AddSvgReportOptions, ParseSvgReportOptions,
                               std::move(words));
}

HtmlPagePlan Html(std::vector<std::string> words, bool add_input = true) {
  return PlanOf<HtmlPagePlan>("prof-html", AddHtmlPageOptions, ParseHtmlPageOptions,
                              std::move(words), add_input);
}

// The UsageError `plan` throws, or "(accepted)".
template <typename MakePlan>
std::string Refusal(MakePlan plan) {
  try {
    plan();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(SvgReportOptions, DefaultsAreFlamegraphPls) {
  const SvgReportPlan plan = Svg({});
  EXPECT_FALSE(plan.graph);
  EXPECT_EQ(plan.svg.width, 1200);
  EXPECT_EQ(plan.svg.frame_height, 16);
  EXPECT_DOUBLE_EQ(plan.svg.min_width, 0.1);
  EXPECT_FALSE(plan.svg.differential);
  EXPECT_FALSE(plan.subtitle_given);
  // --min-width as a percentage of the width.
  EXPECT_DOUBLE_EQ(Svg({"--width", "2000", "--min-width", "0.5%"}).svg.min_width, 10);
}

TEST(SvgReportOptions, EachDrawingRefusesTheOthersOptions) {
  EXPECT_EQ(Refusal([] {
              Svg({"--graph", "--inverted"});
            }),
            "--inverted goes with the flame graph, not --graph");
  EXPECT_EQ(Refusal([] {
              Svg({"--graph", "--diff-base", "b.prof"});
            }),
            "--diff-base goes with the flame graph, not --graph");
  EXPECT_EQ(Refusal([] { Svg({"--nodecount", "10"}); }), "--nodecount goes with --graph");
  const SvgReportPlan graph = Svg({"--graph", "--nodecount", "10"});
  EXPECT_TRUE(graph.graph);
  EXPECT_EQ(graph.graph_options.node_count, 10u);
}

TEST(SvgReportOptions, BadValuesAreRefusedNamingTheOption) {
  EXPECT_EQ(Refusal([] {
              Svg({"--font-size", "0"});
            }),
            "--font-size must be more than 0 and at most 1000");
  EXPECT_EQ(Refusal([] {
              Svg({"--font-width", "11"});
            }),
            "--font-width must be more than 0 and at most 10");
  EXPECT_NE(Refusal([] {
              Svg({"--colors", "plaid"});
            }).find("--colors must be one of"),
            std::string::npos);
  EXPECT_EQ(Refusal([] {
              Svg({"--bg-colors", "#12345"});
            }),
            "--bg-colors must be yellow, blue, green, grey or #RRGGBB");
  EXPECT_EQ(Refusal([] { Svg({"--normalize"}); }),
            "--normalize goes with --diff-base or --base-time");
}

TEST(SvgReportOptions, TheBaseIsNamedInTheLegend) {
  const SvgReportPlan plan = Svg({"--diff-base", "old.prof", "--diff-base", "-", "--normalize"});
  EXPECT_TRUE(plan.svg.differential);
  EXPECT_TRUE(plan.normalize);
  EXPECT_EQ(plan.svg.base_name, "old.prof, (standard input)");
  const SvgReportPlan windows = Svg({"--time", "90%..", "--base-time", "..10%"});
  EXPECT_TRUE(windows.svg.differential);
  EXPECT_TRUE(windows.base.profile_itself);
}

TEST(HtmlPageOptions, TheTitleIsTheInputsNames) {
  EXPECT_EQ(Html({"a.prof", "b.pb.gz"}, /*add_input=*/false).page.title, "a.prof, b.pb.gz");
  EXPECT_EQ(Html({"-"}, /*add_input=*/false).page.title, "");  // standard input: the default
  EXPECT_EQ(Html({"--title", "Run 3"}).page.title, "Run 3");
  EXPECT_TRUE(Html({}).with_graph);
}

TEST(HtmlPageOptions, OptionsWithoutWhatTheyGoWithAreRefused) {
  EXPECT_EQ(Refusal([] { Html({"--normalize"}); }), "--normalize goes with --diff-base");
  EXPECT_EQ(Refusal([] { Html({"--trim-path", "/src"}); }), "--trim-path goes with --source-path");
  EXPECT_EQ(Refusal([] {
              Html({"--source-path", ".", "--granularity", "lines"});
            }),
            "--source-path: the source pane shows functions: leave out --granularity");
  EXPECT_EQ(Refusal([] {
              Html({"--no-graph", "--nodecount", "5"});
            }),
            "--nodecount goes with the call graph, which --no-graph leaves out");
  EXPECT_EQ(Refusal([] {
              Html({"--diff-base", "b.prof", "--no-trim"});
            }),
            "--no-trim goes with the call graph, which a page with --diff-base does not draw");
}

TEST(HtmlPageOptions, ADifferenceHasNoCallGraph) {
  const HtmlPagePlan plan = Html({"--diff-base", "b.prof", "--normalize"});
  EXPECT_FALSE(plan.with_graph);
  EXPECT_EQ(plan.base_files, std::vector<std::string>{"b.prof"});
  EXPECT_TRUE(plan.normalize);
  const HtmlPagePlan source = Html({"--source-path", "src:lib"});
  EXPECT_TRUE(source.page.source);
  EXPECT_EQ(source.page.source_path, "src:lib");
}

}  // namespace
}  // namespace picture_options_test
}  // namespace proftools
