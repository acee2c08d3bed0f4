// prof-filter's library: option values, the proportional window rule, coalescing, labels,
// derived values, collapsed recursion.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "common/base/diagnostics.h"
#include "common/base/quantity.h"
#include "common/filter/coalescer.h"
#include "common/filter/collapse_recursion.h"
#include "common/filter/filter_spec.h"
#include "common/filter/label_filter.h"
#include "common/filter/profile_filter.h"
#include "common/filter/time_window.h"
#include "common/filter/value_plan.h"
#include "tests/test_util.h"

namespace proftools {
namespace filter_test {  // a namespace of its own: the tests build as one unit
namespace {

int64_t Quantity(const std::string& text) {
  struct Quantity q;
  std::string error;
  EXPECT_TRUE(ParseQuantity(text, &q, &error)) << text << ": " << error;
  return q.value;
}

TEST(Quantity, ParsesExactDecimalsWithUnits) {
  EXPECT_EQ(Quantity("1.5s"), 1500000000);
  EXPECT_EQ(Quantity("0.1s"), 100000000);  // no binary floating point on the way
  EXPECT_EQ(Quantity("250ms"), 250000000);
  EXPECT_EQ(Quantity("2m"), 120000000000);
  EXPECT_EQ(Quantity("1KiB"), 1024);
  EXPECT_EQ(Quantity("1.5KB"), 1536);  // powers of 1024, as pprof and prof-merge count
  EXPECT_EQ(Quantity("-3"), -3);
  EXPECT_EQ(Quantity("0.0000000016s"), 2);  // rounded half up to whole nanoseconds
  EXPECT_EQ(Quantity("9223372036854775807"), INT64_MAX);
}

TEST(Quantity, RefusesWhatIsNotANumberOrTooLarge) {
  struct Quantity q;
  std::string error;
  EXPECT_FALSE(ParseQuantity("5parsecs", &q, &error));
  EXPECT_NE(error.find("unknown unit 'parsecs'"), std::string::npos);
  EXPECT_FALSE(ParseQuantity("9223372036854775808", &q, &error));
  EXPECT_FALSE(ParseQuantity("10000000000000000000h", &q, &error));
  EXPECT_FALSE(ParseQuantity("", &q, &error));
  EXPECT_FALSE(ParseQuantity("1.2.3s", &q, &error));
  int64_t nanos;
  EXPECT_FALSE(ParseDuration("5", &nanos, &error));  // a duration needs a unit
  EXPECT_FALSE(ParseDuration("-5s", &nanos, &error));
}

TEST(TimeWindowOption, ParsesEachKindOfBound) {
  TimeSpec spec = ParseTimeWindow("1.5s..20%");
  EXPECT_EQ(spec.from.kind, TimeBound::Kind::kOffset);
  EXPECT_EQ(spec.from.nanos, 1500000000);
  EXPECT_EQ(spec.to.kind, TimeBound::Kind::kPercent);
  EXPECT_EQ(spec.to.ppb, 200000000);
  spec = ParseTimeWindow("@81356.25..");
  EXPECT_EQ(spec.from.kind, TimeBound::Kind::kAbsolute);
  EXPECT_EQ(spec.from.nanos, 81356250000000);
  EXPECT_EQ(spec.to.kind, TimeBound::Kind::kOpen);
  EXPECT_TRUE(ParseTimeWindow("..5s").NeedsSourceSpans());
  EXPECT_FALSE(ParseTimeWindow("@1..@2").NeedsSourceSpans());
}

TEST(TimeWindowOption, RefusesBadWindowsNamingTheOption) {
  for (const char* bad : {"10s..5s", "5parsecs..", "..", "10s", "1s..2s..3s", "101%..", "@x.."}) {
    try {
      ParseTimeWindow(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--time: '", 0), 0u) << e.what();
    }
  }
}

// The heart of the long-sample rule: cutting a sample at any points gives parts that add up to
// its values and its duration exactly, whatever the values (negative, extreme) and cut points.
TEST(TimeWindowProperty, AdjacentWindowsAddUpExactly) {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 20000; ++trial) {
    const int64_t time = static_cast<int64_t>(random() % 1000000);
    const int64_t duration = 1 + static_cast<int64_t>(random() % (trial % 2 ? 7 : 1000000000));
    Sample sample;
    sample.time_nanos = time;
    sample.duration_nanos = duration;
    const int64_t extremes[] = {INT64_MAX, INT64_MIN, -1, 1, 0};
    sample.values = {static_cast<int64_t>(random()), extremes[trial % 5],
                     static_cast<int64_t>(random() % 1000) - 500};
    std::vector<int64_t> cuts = {INT64_MIN};
    for (int k = 0; k < 1 + trial % 5; ++k) {
      cuts.push_back(time - 5 + static_cast<int64_t>(random() % (duration + 10)));
    }
    cuts.push_back(INT64_MAX);
    std::sort(cuts.begin(), cuts.end());
    std::vector<int64_t> sums(sample.values.size(), 0);
    int64_t covered = 0;
    for (size_t w = 0; w + 1 < cuts.size(); ++w) {
      Sample part = sample;
      if (!CutToWindow({cuts[w], cuts[w + 1]}, &part)) continue;
      for (size_t i = 0; i < sums.size(); ++i) sums[i] += part.values[i];
      covered += *part.duration_nanos;
      EXPECT_GE(*part.time_nanos, cuts[w]);
    }
    ASSERT_EQ(sums, sample.values) << "trial " << trial;
    ASSERT_EQ(covered, duration);
  }
}

TEST(TimeWindow, PointSamplesAreInOrOutByTheirTimeHalfOpen) {
  Sample sample;
  sample.time_nanos = 100;
  sample.values = {7};
  EXPECT_TRUE(CutToWindow({100, 200}, &sample));
  EXPECT_FALSE(CutToWindow({0, 100}, &sample));
  sample.duration_nanos = 0;
  EXPECT_FALSE(CutToWindow({101, 200}, &sample));
  EXPECT_EQ(sample.values[0], 7);
}

TEST(TimeWindow, ResolvesAgainstEachSourcesSpan) {
  SourceSpan span;
  span.Add(1000, 0);
  span.Add(3000, 1000);  // ends at 4000
  ResolvedWindow w = ResolveWindow(ParseTimeWindow("25%..50%"), span);
  EXPECT_EQ(w.from, 1750);
  EXPECT_EQ(w.to, 2500);
  w = ResolveWindow(ParseTimeWindow("0%..100%"), span);
  EXPECT_EQ(w.to, INT64_MAX);  // 100% is the open end: the last sample is in
  w = ResolveWindow(ParseTimeWindow("500ns.."), span);
  EXPECT_EQ(w.from, 1500);
  TimeSpec last;
  last.last_nanos = 1500;
  EXPECT_EQ(ResolveWindow(last, span).from, 2500);
  EXPECT_GT(ResolveWindow(last, SourceSpan()).from, ResolveWindow(last, SourceSpan()).to);
}

Sample At(int64_t time, uint64_t stack, std::vector<int64_t> values, std::string thread = "t1") {
  Sample sample;
  sample.source_id = 1;
  sample.stack_id = stack;
  sample.time_nanos = time;
  sample.values = std::move(values);
  sample.labels.push_back(Label::String("thread", thread));
  return sample;
}

std::vector<Sample> Coalesce(const std::vector<Sample>& samples, int64_t gap,
                             std::vector<int> split = {}) {
  std::vector<Sample> out;
  Coalescer coalescer(gap, std::move(split), [&](const Sample& s) { out.push_back(s); });
  for (const Sample& s : samples) coalescer.Add(s);
  coalescer.Finish();
  return out;
}

TEST(Coalescer, JoinsRunsOfOneThreadAndStack) {
  const std::vector<Sample> out =
      Coalesce({At(0, 1, {1}), At(10, 1, {1}), At(15, 1, {1}, "t2"), At(20, 1, {1}), At(40, 1, {1}),
                At(45, 2, {1}), At(50, 1, {1})},
               10);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(*out[0].time_nanos, 0);  // 0, 10, 20 joined; 40 is 20 after 20
  EXPECT_EQ(*out[0].duration_nanos, 20);
  EXPECT_EQ(out[0].values[0], 3);
  EXPECT_EQ(*out[1].time_nanos, 40);  // closed by a sample of another stack
  EXPECT_FALSE(out[1].duration_nanos.has_value());
  EXPECT_EQ(*out[2].time_nanos, 45);  // closed by the next sample of the first stack
  // Still open at the end: emitted in the order the runs started.
  EXPECT_EQ(*out[3].time_nanos, 15);
  EXPECT_EQ(*out[4].time_nanos, 50);
}

TEST(Coalescer, SplitTypeStartsANewRun) {
  const std::vector<Sample> out =
      Coalesce({At(0, 1, {1, 5}), At(1, 1, {1, 0}), At(2, 1, {1, 3}), At(3, 1, {1, 0})}, 10, {1});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].values, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(out[1].values, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(*out[1].time_nanos, 2);
  EXPECT_EQ(*out[1].duration_nanos, 1);
}

// Labels that tell every sample apart (a request id) must not make memory grow with samples:
// runs that can no longer grow are written out along the way.
TEST(Coalescer, RunsThatCannotGrowAreWrittenAlongTheWay) {
  std::vector<Sample> out;
  size_t most_open = 0;
  Coalescer coalescer(10, {}, [&](const Sample& s) { out.push_back(s); });
  for (int64_t i = 0; i < 3 * static_cast<int64_t>(Coalescer::kSweepEvery); ++i) {
    Sample sample = At(i * 100, 1, {1}, "request-" + std::to_string(i));
    coalescer.Add(sample);
    most_open = std::max(most_open, static_cast<size_t>(i + 1) - out.size());
  }
  coalescer.Finish();
  EXPECT_EQ(out.size(), 3 * Coalescer::kSweepEvery);
  EXPECT_LE(most_open, Coalescer::kSweepEvery);
  for (size_t i = 1; i < out.size(); ++i) EXPECT_LT(*out[i - 1].time_nanos, *out[i].time_nanos);
}

int64_t Total(const std::vector<Sample>& samples) {
  int64_t total = 0;
  for (const Sample& s : samples) total += s.values[0];
  return total;
}

std::vector<Sample> Window(std::vector<Sample> samples, int64_t from, int64_t to) {
  std::vector<Sample> kept;
  for (Sample& s : samples) {
    if (CutToWindow({from, to}, &s)) kept.push_back(s);
  }
  return kept;
}

// --coalesce then --time W and --time W then --coalesce keep the same totals when W's ends do
// not fall inside a run. (An end inside a run differs on purpose: the first spreads the run's
// weight evenly over its duration, the second counts the samples that fall in W.)
TEST(CoalesceProperty, CommutesWithWindowsBetweenRuns) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Sample> samples;
    int64_t time = 0;
    for (int i = 0; i < 40; ++i) {
      time += 1 + static_cast<int64_t>(random() % 15);
      samples.push_back(At(time, 1 + random() % 2, {1 + static_cast<int64_t>(random() % 5)}));
    }
    const int64_t gap = 10;
    const std::vector<Sample> runs = Coalesce(samples, gap);
    // Window ends at run starts.
    const int64_t from = *runs[random() % runs.size()].time_nanos;
    const int64_t to = *runs[random() % runs.size()].time_nanos;
    if (from >= to) continue;
    const int64_t a = Total(Window(runs, from, to));
    const int64_t b = Total(Coalesce(Window(samples, from, to), gap));
    ASSERT_EQ(a, b) << "trial " << trial;
  }
}

TEST(GapStatistics, MedianIsAtOrJustAboveTheTrueMedian) {
  GapStatistics gaps;
  for (int64_t t : {0, 1400, 2800, 4200, 5600, 9000}) gaps.Add(At(t * 1000, 1, {1}));
  const int64_t median = gaps.Median();  // gaps 1.4ms ×4, 3.4ms
  EXPECT_GE(median, 1400000);
  EXPECT_LE(median, 1400000 * 1.03);
  EXPECT_EQ(GapStatistics().Median(), 0);
}

TEST(LabelFilter, NumericRangesConvertUnitsStringsAreRegexps) {
  Sample sample = At(0, 1, {1});
  sample.labels.push_back(Label::Number("alloc", 2, "kilobytes"));
  sample.labels.push_back(Label::Number("tid", 150));
  EXPECT_TRUE(MatchesLabel(ParseLabelMatch("--label-focus", "alloc=1KiB..2KiB"), sample));
  EXPECT_FALSE(MatchesLabel(ParseLabelMatch("--label-focus", "alloc=..2047B"), sample));
  EXPECT_FALSE(MatchesLabel(ParseLabelMatch("--label-focus", "alloc=1ms.."), sample));
  EXPECT_TRUE(MatchesLabel(ParseLabelMatch("--label-focus", "tid=100..200"), sample));
  EXPECT_TRUE(MatchesLabel(ParseLabelMatch("--label-focus", "tid=150"), sample));
  EXPECT_FALSE(MatchesLabel(ParseLabelMatch("--label-focus", "tid=151.."), sample));
  EXPECT_TRUE(MatchesLabel(ParseLabelMatch("--label-focus", "thread=^t"), sample));
  EXPECT_FALSE(MatchesLabel(ParseLabelMatch("--label-focus", "thread=x"), sample));
  EXPECT_FALSE(MatchesLabel(ParseLabelMatch("--label-focus", "other=."), sample));
  EXPECT_THROW(ParseLabelMatch("--label-focus", "tid=200..100"), UsageError);
  EXPECT_THROW(ParseLabelMatch("--label-focus", "=1"), UsageError);
}

TEST(ValuePlan, DerivesSelectsAndChecksUnits) {
  ProfileHeader in;
  in.types = {{"samples", "count"}, {"alloc", "bytes"}, {"free", "bytes"}};
  in.default_type = "alloc";
  ValueSpec spec;
  spec.derive = {ParseDerive("live=alloc-free"), ParseDerive("twice=live+live")};
  spec.types = std::vector<std::string>{"twice", "live", "samples"};
  ProfileHeader out = in;
  ValuePlan plan(spec, in, &out);
  ASSERT_EQ(out.types.size(), 3u);
  EXPECT_EQ(out.types[0].unit, "bytes");
  EXPECT_EQ(out.default_type, "");  // alloc was left out
  std::vector<int64_t> values;
  plan.Apply({1, 100, 30}, &values);
  EXPECT_EQ(values, (std::vector<int64_t>{140, 70, 1}));
  plan.Apply({1, INT64_MIN, 1}, &values);  // saturates instead of overflowing
  EXPECT_EQ(values[1], INT64_MIN);

  ValueSpec mixed;
  mixed.derive = {ParseDerive("x=samples+alloc")};
  EXPECT_THROW(ValuePlan(mixed, in, &out), UsageError);
  ValueSpec unknown;
  unknown.derive = {ParseDerive("x=alloc-freed")};
  EXPECT_THROW(ValuePlan(unknown, in, &out), UsageError);
  ValueSpec taken;
  taken.derive = {ParseDerive("alloc=free")};
  EXPECT_THROW(ValuePlan(taken, in, &out), UsageError);
  EXPECT_THROW(ParseDerive("x=alloc+"), UsageError);
}

// Issue 46: a type named with '-' is one term (the longest type name that fits), or spelled out
// in brackets; terms in units of one dimension are added in the finest of them.
TEST(ValuePlan, DerivesTypesWithDashesAndConvertsUnits) {
  ProfileHeader in;
  in.types = {{"cpu", "microseconds"}, {"cpu-clock", "nanoseconds"}, {"clock", "nanoseconds"}};
  ValueSpec spec;
  spec.derive = {ParseDerive("all=cpu+cpu-clock"), ParseDerive("diff=cpu-clock"),
                 ParseDerive("spelled=[cpu]-[clock]")};
  ProfileHeader out = in;
  ValuePlan plan(spec, in, &out);
  ASSERT_EQ(out.types.size(), 6u);
  EXPECT_EQ(out.types[3].unit, "nanoseconds");  // cpu's microseconds are converted
  EXPECT_EQ(out.types[4].unit, "nanoseconds");
  std::vector<int64_t> values;
  plan.Apply({2, 300, 40}, &values);
  // all = 2 us + 300 ns; diff is the type cpu-clock (the longest name), not cpu minus clock.
  EXPECT_EQ(values, (std::vector<int64_t>{2, 300, 40, 2300, 300, 1960}));
}

TEST(CollapseRecursion, TheSeedsExample) {
  // a b c b c b c d e e e f -> a b c d e f (background 004: a (b c)* d e* f)
  const std::vector<uint64_t> keys = {1, 2, 3, 2, 3, 2, 3, 4, 5, 5, 5, 6};
  std::vector<uint64_t> kept;
  for (size_t i : CollapseRepeats(keys)) kept.push_back(keys[i]);
  EXPECT_EQ(kept, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
  // Not adjacent: nothing repeats as a square.
  const std::vector<uint64_t> other = {1, 2, 3, 1, 4};
  EXPECT_EQ(CollapseRepeats(other).size(), 5u);
}

// Short stacks are first checked for any square within a budget of comparisons. A square-free
// word over three keys (from the Thue-Morse sequence: the runs of 1s between its 0s) has many
// near repeats and spends the budget; a square after it must still be collapsed (past the
// budget, the general way decides).
TEST(CollapseRecursion, ASquareAfterASquareFreeWordIsCollapsed) {
  std::vector<uint64_t> keys;
  uint64_t ones = 0;
  for (uint64_t i = 1; keys.size() < 120; ++i) {
    if (__builtin_popcountll(i) % 2 == 0) {
      keys.push_back(ones);
      ones = 0;
    } else {
      ++ones;
    }
  }
  EXPECT_EQ(CollapseRepeats(keys).size(), keys.size());  // square-free
  for (uint64_t key : {7, 8, 7, 8}) keys.push_back(key);
  const std::vector<size_t> kept = CollapseRepeats(keys);
  ASSERT_EQ(kept.size(), keys.size() - 2);
  EXPECT_EQ(kept.back(), keys.size() - 3);
}

// CollapseRepeats tries only the lengths at which the last frame's key stands before it: the same
// result, cycles included, as trying every length from 1 up (the definition), on random stacks
// of small alphabets (many squares) and large ones (few), shallow and deep.
TEST(CollapseRecursion, SameAsTryingEveryLength) {
  auto every_length = [](const std::vector<uint64_t>& keys, std::vector<CollapsedCycle>* cycles) {
    std::vector<size_t> kept;
    std::vector<std::pair<size_t, size_t>> noted;
    for (size_t i = 0; i < keys.size(); ++i) {
      kept.push_back(i);
      for (size_t length = 1; 2 * length <= kept.size(); ++length) {
        const size_t n = kept.size();
        bool square = true;
        for (size_t k = 0; k < length && square; ++k) {
          square = keys[kept[n - 2 * length + k]] == keys[kept[n - length + k]];
        }
        if (square) {
          kept.resize(n - length);
          const size_t first = n - 2 * length, last = n - length - 1;
          noted.erase(std::remove_if(noted.begin(), noted.end(),
                                     [&](const auto& c) { return c.first > last; }),
                      noted.end());
          if (std::find(noted.begin(), noted.end(), std::make_pair(first, last)) == noted.end()) {
            noted.emplace_back(first, last);
          }
          break;
        }
      }
    }
    std::sort(noted.begin(), noted.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    cycles->clear();
    for (const auto& c : noted) cycles->push_back(CollapsedCycle{c.first, c.second});
    return kept;
  };
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    const uint64_t alphabet = 1 + random() % (round % 3 == 0 ? 50 : 4);
    // Stacks of up to kCheckedStack frames find each key's places in a table of their own,
    // deeper ones in a flat index: both.
    std::vector<uint64_t> keys(round % 10 == 0 ? random() % 300 : random() % 60);
    for (uint64_t& key : keys) key = random() % alphabet;
    std::vector<CollapsedCycle> want_cycles, got_cycles;
    const std::vector<size_t> want = every_length(keys, &want_cycles);
    ASSERT_EQ(CollapseRepeats(keys, &got_cycles), want) << round;
    ASSERT_EQ(got_cycles.size(), want_cycles.size()) << round;
    for (size_t i = 0; i < want_cycles.size(); ++i) {
      EXPECT_EQ(got_cycles[i].first, want_cycles[i].first) << round;
      EXPECT_EQ(got_cycles[i].last, want_cycles[i].last) << round;
    }
  }
}

// The filter end to end on text: unused definitions are dropped, the meta record says what was
// applied, and the output is valid.
TEST(ProfileFilter, KeepsOnlyWhatSamplesUseAndSaysWhatWasApplied) {
  const std::string text = testing::Preamble("type samples count\n") +
                           "function 1 a \"\" \"\" 0\nfunction 2 b \"\" \"\" 0\n"
                           "location 1 - 0x1 - 1:0\nlocation 2 - 0x2 - 2:0\n"
                           "stack 1 1\nstack 2 2\n"
                           "sample 1 1 - - 3 k=x\nsample 1 2 - - 4 k=y\n";
  FilterSpec spec;
  spec.labels.focus.push_back(ParseLabelMatch("--label-focus", "k=y"));
  spec.description = "--label-focus k=y";
  MemoryStream stream(text);
  StringSink out;
  CanonicalWriter writer(&out);
  ProfileFilter filter(spec, nullptr, &writer, "test");
  ReadText(&stream, "test", &filter);
  EXPECT_EQ(filter.samples_read(), 2u);
  EXPECT_EQ(filter.samples_written(), 1u);
  const std::string result = out.text();
  EXPECT_NE(result.find("meta proftools.filter \"--label-focus k=y\"\n"), std::string::npos);
  EXPECT_EQ(result.find("function 1 a"), std::string::npos) << result;
  EXPECT_NE(result.find("function 1 b"), std::string::npos) << result;
  EXPECT_EQ(testing::Violations(result).size(), 0u);
}

}  // namespace
}  // namespace filter_test
}  // namespace proftools
