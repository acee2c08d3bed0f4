// --diff-base: DiffStackTotals interns both profiles' stacks into one and subtracts, and the
// reports read the result as pprof reads a -diff_base profile.
#include "common/report/diff_totals.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/base/diagnostics.h"
#include "common/report/frames.h"
#include "common/report/reports.h"
#include "common/text/text_reader.h"
#include "tests/test_util.h"

namespace proftools {
namespace diff_totals_test {  // a namespace of its own: the tests build as one unit
namespace {

// Stacks root first ("main a b"), one sample each, of type cpu/nanoseconds by default.
std::string Profile(const std::vector<std::pair<std::string, int64_t>>& stacks,
                    const std::string& type = "type cpu nanoseconds\n") {
  return testing::StacksProfile(stacks, type);
}

struct Totals {
  explicit Totals(const std::string& text) {
    MemoryStream stream(text);
    ReadText(&stream, "x", &totals);
  }
  StackTotals totals;
};

// Each entry as "root;...;leaf" -> {value, base value}.
std::map<std::string, std::pair<int64_t, int64_t>> Entries(const StackTotals& totals) {
  FrameExpander frames(totals.defs(), Granularity::kFunctions);
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  std::vector<const Frame*> stack;
  for (const StackTotals::Entry& entry : totals.entries()) {
    stack.clear();
    frames.StackFrames(entry.stack_id, &stack);
    std::string key;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
      key += (key.empty() ? "" : ";") + (*it)->name;
    const int64_t* base = totals.base_values(entry);
    out[key] = {entry.values[0], base == nullptr ? 0 : base[0]};
  }
  return out;
}

TEST(DiffStackTotals, SameStacksAreOneEntryWhateverTheirIds) {
  Totals profile(Profile({{"main a", 50}, {"main b", 30}, {"main", 5}}));
  Totals base(Profile({{"main b", 10}, {"main c", 40}, {"main a", 20}}));
  StackTotals diff;
  DiffStackTotals(profile.totals, base.totals, 0, false, &diff);
  EXPECT_TRUE(diff.is_diff());
  const auto entries = Entries(diff);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries.at("main;a"), std::make_pair(int64_t{30}, int64_t{20}));
  EXPECT_EQ(entries.at("main;b"), std::make_pair(int64_t{20}, int64_t{10}));
  EXPECT_EQ(entries.at("main;c"), std::make_pair(int64_t{-40}, int64_t{40}));
  EXPECT_EQ(entries.at("main"), std::make_pair(int64_t{5}, int64_t{0}));
  // Percentages are of the base's total, as pprof's.
  EXPECT_EQ(diff.total_values()[0], 70);
  // Identical definitions are stored once.
  EXPECT_EQ(diff.defs().functions.size(), 4u);
}

TEST(DiffStackTotals, NormalizeScalesTheBaseToTheProfilesTotal) {
  Totals profile(Profile({{"main a", 60}, {"main b", 40}}));
  Totals base(Profile({{"main a", 20}, {"main b", 30}}));
  StackTotals diff;
  DiffStackTotals(profile.totals, base.totals, 0, true, &diff);
  const auto entries = Entries(diff);
  EXPECT_EQ(entries.at("main;a"), std::make_pair(int64_t{20}, int64_t{40}));
  EXPECT_EQ(entries.at("main;b"), std::make_pair(int64_t{-20}, int64_t{60}));
  EXPECT_EQ(diff.total_values()[0], 100);
}

// As pprof: a base in another unit of the same dimension is converted to the profile's unit.
TEST(DiffStackTotals, ABaseInAnotherUnitOfTheDimensionIsConverted) {
  Totals profile(Profile({{"main", 5000}}));  // nanoseconds
  Totals micro(Profile({{"main", 2}}, "type cpu microseconds\n"));
  StackTotals diff;
  DiffStackTotals(profile.totals, micro.totals, 0, false, &diff);
  EXPECT_EQ(Entries(diff).at("main"), std::make_pair(int64_t{3000}, int64_t{2000}));
  EXPECT_EQ(diff.total_values()[0], 2000);
  const BaseType coarser = MatchBaseType(micro.totals.header(), profile.totals.header(), 0);
  EXPECT_EQ(coarser.index, 0);
  EXPECT_DOUBLE_EQ(coarser.scale, 0.001);
}

TEST(DiffStackTotals, TheReportedTypeMustBeInTheBaseInAConvertibleUnit) {
  Totals profile(Profile({{"main", 1}}));
  Totals other_unit(Profile({{"main", 1}}, "type cpu widgets\n"));
  StackTotals diff;
  try {
    DiffStackTotals(profile.totals, other_unit.totals, 0, false, &diff);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--diff-base: the base has type 'cpu' in widgets, which does not convert to "
              "nanoseconds");
  }
}

TEST(DiffStackTotals, TopSortsByMagnitudeAndHidesZeroRows) {
  Totals profile(Profile({{"main a", 10}, {"main b", 30}, {"main z", 7}}));
  Totals base(Profile({{"main a", 60}, {"main b", 10}, {"main z", 7}}));
  StackTotals diff;
  DiffStackTotals(profile.totals, base.totals, 0, false, &diff);
  ReportOptions options;
  options.raw_values = true;
  StringSink out;
  WriteTopReport(diff, options, &out);
  const std::string& text = out.text();
  // a (-50) before b (+20); z is 0 everywhere and has no row; main is 0 flat, -30 cum.
  EXPECT_LT(text.find("  a\n"), text.find("  b\n")) << text;
  EXPECT_EQ(text.find("  z\n"), std::string::npos) << text;
  EXPECT_NE(text.find("-30 -38.96%  main\n"), std::string::npos) << text;
  EXPECT_NE(text.find("of 77 total"), std::string::npos) << text;
}

}  // namespace
}  // namespace diff_totals_test
}  // namespace proftools
