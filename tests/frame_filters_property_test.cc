// Properties of the frame filters on random profiles (tests/random_profile.h), through
// ProfileFilter as prof-filter runs them:
//   - --collapse-recursion keeps every function's flat and cumulative values;
//   - --focus-seq RE is --focus RE --show-from RE where locations have no inlined lines.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/filter/profile_filter.h"
#include "common/model/sink.h"
#include "tests/random_profile.h"

namespace proftools {
namespace frame_filters_property_test {  // a namespace of its own: the tests build as one unit
namespace {

// `profile` through a ProfileFilter applying `spec`.
Profile Filtered(const Profile& profile, FilterSpec spec) {
  spec.frames.drop_frames = false;  // random drop_frames are not expressions
  spec.description = "test";
  ProfileBuilder out;
  ProfileFilter filter(spec, nullptr, &out, "random");
  EmitProfile(profile, filter);
  return out.Take();
}

// A frame by content (ids differ between input and output): its function, or for a location
// without lines its address and mapping file.
std::string FrameKey(const Definitions& defs, const Location& location, size_t line) {
  if (location.lines.empty()) {
    const Mapping* mapping = defs.mappings.Find(location.mapping_id);
    return "@" + std::to_string(location.address) + "/" + (mapping ? mapping->file : "");
  }
  const Function& f = *defs.functions.Find(location.lines[line].function_id);
  return f.name + '\0' + f.system_name + '\0' + f.file + '\0' + std::to_string(f.start_line);
}

struct FunctionTotals {
  // Sums modulo 2^64 of the first value: the same whatever the order of the samples.
  std::map<std::string, uint64_t> flat, cum;
  uint64_t frames = 0;  // frames over all samples
  bool operator==(const FunctionTotals& o) const { return flat == o.flat && cum == o.cum; }
};

FunctionTotals Totals(const Profile& profile) {
  FunctionTotals totals;
  for (const Sample& sample : profile.samples) {
    const uint64_t value = static_cast<uint64_t>(sample.values[0]);
    std::vector<std::string> keys;  // leaf first
    for (uint64_t id : profile.defs.stacks.Find(sample.stack_id)->location_ids) {
      const Location& location = *profile.defs.locations.Find(id);
      for (size_t i = 0; i < std::max<size_t>(location.lines.size(), 1); ++i) {
        keys.push_back(FrameKey(profile.defs, location, i));
      }
    }
    totals.frames += keys.size();
    if (keys.empty()) continue;
    totals.flat[keys[0]] += value;
    for (const std::string& key : std::set<std::string>(keys.begin(), keys.end())) {
      totals.cum[key] += value;
    }
  }
  return totals;
}

TEST(CollapseRecursionProperty, EveryFunctionKeepsItsFlatAndCumulativeValues) {
  testing::RandomProfileGenerator generator(13);
  FilterSpec spec;
  spec.frames.collapse_recursion = true;
  uint64_t frames_removed = 0;
  for (int i = 0; i < 300; ++i) {
    const Profile profile = generator.Next();
    const FunctionTotals before = Totals(profile);
    const FunctionTotals after = Totals(Filtered(profile, spec));
    ASSERT_EQ(before, after) << "profile " << i;
    ASSERT_LE(after.frames, before.frames);
    frames_removed += before.frames - after.frames;
  }
  EXPECT_GT(frames_removed, 100u);  // recursion there was, and it was collapsed
}

// The profile with every location reduced to its innermost line.
Profile WithoutInlining(Profile profile) {
  Definitions defs;
  for (const Mapping& m : profile.defs.mappings.items()) defs.mappings.Add(m);
  for (const Function& f : profile.defs.functions.items()) defs.functions.Add(f);
  for (Location l : profile.defs.locations.items()) {
    if (l.lines.size() > 1) l.lines.resize(1);
    defs.locations.Add(l);
  }
  for (const Stack& s : profile.defs.stacks.items()) defs.stacks.Add(s);
  profile.defs = std::move(defs);
  return profile;
}

TEST(FocusSequenceProperty, OneElementIsFocusPlusShowFrom) {
  testing::RandomProfileGenerator generator(4);
  int compared = 0, kept = 0;
  for (int i = 0; i < 300; ++i) {
    const Profile profile = WithoutInlining(generator.Next());
    // A function's name (or part of it) as the expression.
    const std::string& name = profile.defs.functions.items()[0].name;
    const std::string pattern = re2::RE2::QuoteMeta(name.substr(0, 2));
    // ';' separates --focus-seq's elements (a literal one is written \x3b).
    if (pattern.find(';') != std::string::npos || !re2::RE2(pattern, re2::RE2::Quiet).ok()) {
      continue;
    }
    FilterSpec sequence, pprof;
    sequence.frames.focus_seq.push_back(ParseFocusSequence(pattern));
    pprof.frames.focus = pprof.frames.show_from = CompileFrameRegex("--focus", {pattern});
    const Profile a = Filtered(profile, sequence);
    const Profile b = Filtered(profile, pprof);
    ASSERT_EQ(a.defs, b.defs) << "profile " << i << ", " << pattern;
    ASSERT_EQ(a.samples, b.samples) << "profile " << i << ", " << pattern;
    ++compared;
    kept += !a.samples.empty();
  }
  EXPECT_GT(compared, 200);
  EXPECT_GT(kept, 50);
}

}  // namespace
}  // namespace frame_filters_property_test
}  // namespace proftools
