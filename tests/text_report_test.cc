// prof-text's options and how they combine (common/cli/text_report.h), reached without running
// the program.
#include "common/cli/text_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace proftools {
namespace text_report_test {  // a namespace of its own: the tests build as one unit
namespace {

TextReportPlan Plan(std::vector<std::string> words) {
  CommandLine cli("prof-text", "[OPTION...] [FILE...]", "test");
  AddTextReportOptions(&cli);
  words.insert(words.begin(), "prof-text");
  words.push_back("in.prof");  // an input, so that a terminal on stdin does not matter
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(&word[0]);
  EXPECT_TRUE(cli.Parse(static_cast<int>(argv.size()), argv.data()));
  return ParseTextReportOptions(cli);
}

std::string Refusal(std::vector<std::string> words) {
  try {
    Plan(std::move(words));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TextReportOptions, DefaultsArePprofs) {
  const TextReportPlan top = Plan({});
  EXPECT_EQ(top.mode, TextMode::kTop);
  EXPECT_DOUBLE_EQ(top.options.min_percent, 0.5);  // pprof's nodefraction
  const TextReportPlan tree = Plan({"--tree"});
  EXPECT_EQ(tree.options.node_count, 80u);  // pprof's nodecount
  EXPECT_DOUBLE_EQ(Plan({"--tree", "--no-trim"}).options.min_percent, 0);
  EXPECT_DOUBLE_EQ(Plan({"--sequences"}).options.min_percent, 5);
}

TEST(TextReportOptions, OneModeAtATime) {
  EXPECT_NE(Refusal({"--top", "--tree"}).find("choose one of"), std::string::npos);
}

TEST(TextReportOptions, OptionsThatDoNotGoWithTheModeAreRefusedNamingBoth) {
  EXPECT_EQ(Refusal({"--tree", "--sort", "cum"}), "--sort goes with --top, not --tree");
  EXPECT_EQ(Refusal({"--canonical", "--min-percent", "1"}),
            "--min-percent goes with the reports, not --canonical");
  EXPECT_EQ(Refusal({"--canonical", "--value", "cpu"}),
            "--canonical writes every value type; --value applies to reports");
  EXPECT_EQ(Refusal({"--no-trim", "--min-percent", "1"}),
            "--no-trim keeps every row; --min-percent keeps those above P%: choose one");
  EXPECT_EQ(Refusal({"--flamegraph"}),
            "--flamegraph, --root, --annotate and --unknown-addresses go with --folded");
  EXPECT_EQ(Refusal({"--normalize"}), "--normalize goes with --diff-base or --base-time");
  EXPECT_NE(
      Refusal({"--tags", "--diff-base", "b.prof"}).find("--diff-base and --base-time go with"),
      std::string::npos);
  EXPECT_NE(Refusal({"--timeline=0s"}).find("a bucket is a positive duration"), std::string::npos);
}

TEST(TextReportOptions, TracesCollapseRecursionInTheReport) {
  const TextReportPlan plan = Plan({"--traces", "--collapse-recursion"});
  EXPECT_FALSE(plan.spec.frames.collapse_recursion);  // the report sees the original stacks
  EXPECT_TRUE(plan.options.mark_cycles);
}

// Issue 24 item 10: --base-time reads the base with its own window; without --diff-base the
// base is the profile itself.
TEST(TextReportOptions, BaseTimeIsTheBasesWindow) {
  const TextReportPlan plan = Plan({"--time", "90%..", "--base-time", "..10%"});
  const BaseSelection& base = plan.diff_base.base;
  ASSERT_TRUE(base.active());
  EXPECT_TRUE(base.profile_itself);
  EXPECT_EQ(base.paths, std::vector<std::string>{"in.prof"});
  EXPECT_EQ(base.spec.time.from.kind, TimeBound::Kind::kOpen);
  EXPECT_EQ(base.spec.time.to.kind, TimeBound::Kind::kPercent);
  EXPECT_EQ(plan.spec.time.from.kind, TimeBound::Kind::kPercent);
  EXPECT_EQ(plan.options.filter_description, "--time 90%.. (base: --base-time ..10%)");

  const TextReportPlan other =
      Plan({"--diff-base", "b.prof", "--last", "1s", "--base-time", "1s.."});
  EXPECT_FALSE(other.diff_base.base.profile_itself);
  EXPECT_EQ(other.diff_base.base.paths, std::vector<std::string>{"b.prof"});
  EXPECT_FALSE(other.diff_base.base.spec.time.last_nanos.has_value());
  EXPECT_TRUE(other.spec.time.last_nanos.has_value());
  EXPECT_FALSE(Plan({}).diff_base.base.active());
}

}  // namespace
}  // namespace text_report_test
}  // namespace proftools
