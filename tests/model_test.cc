// In-memory profiles: the checker on records built by code, CheckingSink, and the Interner.
#include <gtest/gtest.h>

#include "common/base/id_table.h"
#include "common/model/checker.h"
#include "common/model/interner.h"
#include "tests/test_util.h"

namespace proftools {
namespace model_test {  // a namespace of its own: the tests build as one unit
namespace {

Profile Minimal() {
  Profile p;
  p.header.sources.push_back({1, "manual", "m", std::nullopt});
  p.header.types.push_back({"samples", "count"});
  p.defs.functions.Add({1, "main", "", "main.c", 1});
  p.defs.locations.Add({1, 0, 0x10, false, {{1, 3, 0}}});
  p.defs.stacks.Add({1, {1}});
  p.samples.push_back({1, 1, std::nullopt, std::nullopt, {1}, {}});
  return p;
}

std::vector<std::string> Broken(const Profile& p) {
  testing::CollectingHandler handler;
  ValidateProfile(p, &handler, "model");
  std::vector<std::string> rules;
  for (const Diagnostic& d : handler.errors) rules.push_back(RuleName(d.rule));
  return rules;
}

TEST(ValidateProfile, AcceptsAValidProfile) {
  EXPECT_TRUE(Broken(Minimal()).empty());
}

TEST(ValidateProfile, ReportsModelViolationsByRule) {
  Profile p = Minimal();
  p.samples[0].values.push_back(2);
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"value-count"}));

  p = Minimal();
  p.header.types.push_back({"samples", "bytes"});
  p.samples[0].values.push_back(0);
  // The refused type still declares a column: the sample's two values are not a second fault.
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"type-duplicate"}));

  p = Minimal();
  p.defs.locations.Add({2, 7, 0, false, {}});  // mapping 7 does not exist
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"undefined"}));

  p = Minimal();
  p.samples[0].labels.push_back(Label::String("", "x"));
  p.samples[0].time_nanos = -1;
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"negative-time"}));

  p = Minimal();
  p.header.types.clear();
  p.samples.clear();
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"no-types"}));

  p = Minimal();
  p.header.default_type = "cpu";
  EXPECT_EQ(Broken(p), (std::vector<std::string>{"undefined"}));
}

TEST(ValidateProfile, MessagesNameTheRecordWithoutALine) {
  Profile p = Minimal();
  p.defs.functions.Add({0, "zero", "", "", 0});
  testing::CollectingHandler handler;
  ValidateProfile(p, &handler, "model");
  ASSERT_EQ(handler.errors.size(), 1u);
  EXPECT_EQ(handler.errors[0].Format(), "model: function id must be positive, not 0 [id-zero]");
}

TEST(CheckingSink, ThrowsOnTheFirstInvalidRecordByDefault) {
  StringSink out;
  CanonicalWriter writer(&out);
  DiagnosticHandler throwing;
  CheckingSink checking(&writer, &throwing, "producer");
  ProfileHeader header;
  header.sources.push_back({1, "perf", "x", std::nullopt});
  header.types.push_back({"samples", "count"});
  checking.OnHeader(header);
  checking.OnStack({1, {}});
  EXPECT_THROW(checking.OnSample({1, 2, std::nullopt, std::nullopt, {1}, {}}), ProfError);
}

// OnExpect is a hint: whatever it says (too few, too many, absurdly many), the checked
// profile a builder keeps is the profile, and no sink makes room past ExpectedDefinitions::kMost.
TEST(CheckingSink, ExpectedCountsAreAHintThatChangesNothing) {
  const Profile minimal = Minimal();
  for (const ExpectedDefinitions& expected :
       {ExpectedDefinitions{}, ExpectedDefinitions{1, 1, 1}, ExpectedDefinitions{0, 5, 1000},
        ExpectedDefinitions{~uint64_t{0}, uint64_t{1} << 40, ExpectedDefinitions::kMost + 1}}) {
    ProfileBuilder builder;
    DiagnosticHandler throwing;
    CheckingSink checking(&builder, &throwing, "producer");
    checking.OnHeader(minimal.header);
    checking.OnExpect(expected);
    for (const Function& f : minimal.defs.functions.items()) checking.OnFunction(f);
    for (const Location& l : minimal.defs.locations.items()) checking.OnLocation(l);
    checking.OnExpect(expected);  // after definitions: no effect either
    for (const Stack& st : minimal.defs.stacks.items()) checking.OnStack(st);
    for (const Sample& sample : minimal.samples) checking.OnSample(sample);
    checking.OnEnd();
    EXPECT_EQ(builder.Take(), minimal);
  }
}

// Records what an Interner emits.
class RecordingSink : public ProfileBuilder {
 public:
  int emitted = 0;
  void OnMapping(const Mapping& m) override { ++emitted, ProfileBuilder::OnMapping(m); }
  void OnFunction(const Function& f) override { ++emitted, ProfileBuilder::OnFunction(f); }
  void OnLocation(const Location& l) override { ++emitted, ProfileBuilder::OnLocation(l); }
  void OnStack(const Stack& s) override { ++emitted, ProfileBuilder::OnStack(s); }
};

TEST(Interner, SameContentSameIdEmittedOnce) {
  RecordingSink sink;
  Interner interner(&sink);
  const uint64_t f1 = interner.Function({99, "f", "", "a.c", 1});
  const uint64_t f1_again = interner.Function({5, "f", "", "a.c", 1});  // id ignored
  const uint64_t f2 = interner.Function({0, "f", "", "b.c", 1});        // other file
  EXPECT_EQ(f1, 1u);
  EXPECT_EQ(f1_again, 1u);
  EXPECT_EQ(f2, 2u);
  const uint64_t m =
      interner.Mapping({0, 0x1000, 0x2000, 0, "lib.so", "", true, false, false, false});
  const uint64_t l1 = interner.Location({0, m, 0x1010, false, {{f1, 3, 0}}});
  const uint64_t l2 = interner.Location({0, m, 0x1010, false, {{f1, 4, 0}}});
  EXPECT_NE(l1, l2);
  EXPECT_EQ(interner.Location({7, m, 0x1010, false, {{f1, 3, 0}}}), l1);
  EXPECT_EQ(interner.Stack({l1, l2}), 1u);
  EXPECT_EQ(interner.Stack({l2, l1}), 2u);
  EXPECT_EQ(interner.Stack({l1, l2}), 1u);
  EXPECT_EQ(interner.Stack({}), 3u);
  EXPECT_EQ(sink.emitted, 2 + 1 + 2 + 3);
  EXPECT_EQ(interner.function_count(), 2u);
  EXPECT_EQ(interner.stack_count(), 3u);
  // What was emitted is valid, define-before-use input for any sink.
  ProfileHeader header;
  header.types.push_back({"samples", "count"});
  sink.OnHeader(header);
  const Profile p = sink.Take();
  EXPECT_EQ(p.defs.functions.Find(2)->file, "b.c");
  EXPECT_EQ(p.defs.stacks.Find(2)->location_ids, (std::vector<uint64_t>{l2, l1}));
}

// NewStack(&frames) lends the frames to the sink and gives them back as they were, even when
// the sink throws.
TEST(Interner, NewStackLendsTheFramesAndGivesThemBack) {
  struct Refusing : ProfileBuilder {
    void OnStack(const Stack& stack) override {
      if (stack.location_ids.size() > 2) throw ProfError("sink", "too deep");
      ProfileBuilder::OnStack(stack);
    }
  } sink;
  Interner interner(&sink);
  std::vector<uint64_t> frames = {3, 2};
  EXPECT_EQ(interner.NewStack(&frames), 1u);
  EXPECT_EQ(frames, (std::vector<uint64_t>{3, 2}));
  frames.push_back(1);
  EXPECT_THROW(interner.NewStack(&frames), ProfError);
  EXPECT_EQ(frames, (std::vector<uint64_t>{3, 2, 1}));
  EXPECT_EQ(interner.NewStack(std::vector<uint64_t>{5}), 3u);
  const Profile profile = sink.Take();
  ASSERT_EQ(profile.defs.stacks.size(), 2u);
  EXPECT_EQ(profile.defs.stacks.Find(1)->location_ids, (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(profile.defs.stacks.Find(3)->location_ids, (std::vector<uint64_t>{5}));
}

// NewFunction and NewLocation give the next ids without interning (the caller knows its
// contents differ); a kind is all interned by content or all new; Rollback forgets new ones too.
TEST(Interner, NewFunctionsAndLocationsAreTheNextIdsAndAKindGoesOneWay) {
  ProfileBuilder sink;
  Interner interner(&sink);
  const uint64_t f = interner.NewFunction({0, "f", "f", "a.py", 1});
  const uint64_t g = interner.NewFunction({0, "g", "g", "a.py", 5});
  EXPECT_EQ(f, 1u);
  EXPECT_EQ(g, 2u);
  EXPECT_EQ(interner.NewLocation({0, 0, 0, false, {{g, 0, 0}}}), 1u);
  const Interner::Mark mark = interner.GetMark();
  EXPECT_EQ(mark.functions, 2u);
  EXPECT_EQ(mark.locations, 1u);
  EXPECT_EQ(interner.NewLocation({0, 0, 0, false, {{f, 0, 0}}}), 2u);
  interner.Rollback(mark);
  EXPECT_EQ(interner.location_count(), 1u);
  EXPECT_EQ(interner.NewLocation({0, 0, 0, false, {{f, 0, 0}}}), 2u);  // handed out again
  EXPECT_THROW(interner.Function({0, "h", "h", "a.py", 9}), std::logic_error);
  EXPECT_THROW(interner.Location({0, 0, 0, false, {{f, 0, 0}}}), std::logic_error);
  Interner by_content(&sink);
  by_content.Function({0, "f", "f", "a.py", 1});
  EXPECT_THROW(by_content.NewFunction({0, "g", "g", "a.py", 5}), std::logic_error);
  const Profile profile = sink.Take();
  ASSERT_EQ(profile.defs.functions.size(), 2u);  // the by-content f is id 1 again: refused
  EXPECT_EQ(profile.defs.functions.Find(2)->name, "g");
}

TEST(Interner, LocationsPreparedAheadGetTheIdsTheyWouldHaveGotAtOnce) {
  RecordingSink direct_sink, prepared_sink;
  Interner direct(&direct_sink), ahead(&prepared_sink);
  // 3000 locations, one in three seen before: prepared all at once, then interned, so that
  // the table grows between the preparing and the interning of most of them.
  std::vector<Location> locations;
  for (uint64_t i = 0; i < 3000; ++i) {
    locations.push_back({0, 0, (i % 3 == 2 ? i - 2 : i) + 100000, false, {}});
  }
  std::vector<Interner::PreparedLocation> prepared(locations.size());
  for (size_t i = 0; i < locations.size(); ++i) ahead.PrepareLocation(locations[i], &prepared[i]);
  for (size_t i = 0; i < locations.size(); ++i) {
    ASSERT_EQ(ahead.InternPrepared(prepared[i]), direct.Location(locations[i])) << i;
  }
  EXPECT_EQ(ahead.location_count(), 2000u);
  EXPECT_EQ(prepared_sink.emitted, direct_sink.emitted);
}

TEST(Interner, LocationsDifferInEveryFieldAndRollBack) {
  RecordingSink sink;
  Interner interner(&sink);
  const uint64_t f = interner.Function({0, "f", "", "a.c", 1});
  const uint64_t g = interner.Function({0, "g", "", "a.c", 1});
  const uint64_t m = interner.Mapping({0, 0x1000, 0x2000, 0, "lib.so", "", 0, 0, 0, 0});
  // Each differs from the first in one field; a line's fields are not interchangeable with
  // the location's (the content is one sequence of integers: its length counts too).
  const std::vector<Location> distinct = {
      {0, m, 0x10, false, {{f, 3, 0}}},
      {0, 0, 0x10, false, {{f, 3, 0}}},
      {0, m, 0x11, false, {{f, 3, 0}}},
      {0, m, 0x10, true, {{f, 3, 0}}},
      {0, m, 0x10, false, {{g, 3, 0}}},
      {0, m, 0x10, false, {{f, 4, 0}}},
      {0, m, 0x10, false, {{f, 3, 7}}},
      {0, m, 0x10, false, {{f, 3, 0}, {g, 1, 0}}},
      {0, m, 0x10, false, {{g, 1, 0}, {f, 3, 0}}},
      {0, m, 0x10, false, {}},
      {0, m, 0x10, false, {{f, -1, 0}}},
  };
  for (size_t i = 0; i < distinct.size(); ++i) {
    EXPECT_EQ(interner.Location(distinct[i]), i + 1) << i;
  }
  for (size_t i = 0; i < distinct.size(); ++i) {
    EXPECT_EQ(interner.Location(distinct[i]), i + 1) << i;
  }
  EXPECT_EQ(interner.location_count(), distinct.size());
  // Rolled back to the first three, the rest are new again and get the same ids once more.
  Interner::Mark mark = interner.GetMark();
  mark.locations = 3;
  interner.Rollback(mark);
  EXPECT_EQ(interner.location_count(), 3u);
  EXPECT_EQ(interner.Location(distinct[2]), 3u);
  EXPECT_EQ(interner.Location(distinct[7]), 4u);
  EXPECT_EQ(interner.Location(distinct[3]), 5u);
  EXPECT_EQ(sink.emitted, 2 + 1 + static_cast<int>(distinct.size()) + 2);
}

}  // namespace
}  // namespace model_test
}  // namespace proftools

namespace proftools {
namespace model_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(IdMap, DenseSparseAndHugeIds) {
  IdMap table;
  const uint64_t huge = std::stoull("1152921504606846976");  // 2^60, not a constant to GCC
  uint64_t first = 0;
  EXPECT_TRUE(table.Insert(1, 10, &first));
  EXPECT_TRUE(table.Insert(huge, 11, &first));  // huge: stays sparse, no big alloc
  EXPECT_TRUE(table.Insert(5000, 12, &first));
  EXPECT_FALSE(table.Insert(1, 13, &first));
  EXPECT_EQ(first, 10u);
  EXPECT_FALSE(table.Insert(huge, 14, &first));
  EXPECT_EQ(first, 11u);
  for (uint64_t id = 2; id < 20000; ++id) {
    if (id != 5000) {
      ASSERT_TRUE(table.Insert(id, id, &first)) << id;
    }
  }
  // 5000 moved from the sparse part to the dense part as the dense part grew.
  EXPECT_FALSE(table.Insert(5000, 1, &first));
  EXPECT_EQ(first, 12u);
  EXPECT_TRUE(table.Contains(19999));
  EXPECT_FALSE(table.Contains(20000));
  EXPECT_FALSE(table.Contains(0));
  EXPECT_TRUE(table.Contains(huge));
  EXPECT_EQ(table.size(), 20000u);
  uint64_t value = 0;
  EXPECT_TRUE(table.Find(19999, &value));
  EXPECT_EQ(value, 19999u);
}

TEST(IdMap, ClearForgetsEveryIdAndReserveMakesNone) {
  const uint64_t huge = std::stoull("1152921504606846976");
  for (const uint64_t reserved : {uint64_t{0}, uint64_t{100}, uint64_t{1} << 20}) {
    IdMap table;
    table.Reserve(reserved);
    uint64_t value = 0;
    EXPECT_FALSE(table.Contains(1));
    EXPECT_EQ(table.size(), 0u);
    for (int round = 0; round < 3; ++round) {
      for (uint64_t id = 1; id <= 3000; ++id) ASSERT_TRUE(table.Insert(id, id + round, &value));
      ASSERT_TRUE(table.Insert(huge, 7, &value));
      EXPECT_EQ(table.size(), 3001u);
      EXPECT_TRUE(table.Find(3000, &value));
      EXPECT_EQ(value, 3000u + round);
      table.Clear();
      EXPECT_EQ(table.size(), 0u);
      for (uint64_t id : {uint64_t{1}, uint64_t{2999}, uint64_t{3000}, huge}) {
        EXPECT_FALSE(table.Contains(id)) << id << " round " << round;
      }
    }
  }
}

}  // namespace
}  // namespace model_test
}  // namespace proftools
