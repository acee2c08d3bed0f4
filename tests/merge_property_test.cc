// Properties of prof-merge over random profiles: merging is associative byte for byte (a tree of
// merges gives the same output as one merge), the preamble does not depend on input order,
// nothing is lost (every input's samples are in the output, their values converted), and
// --pprof writes the bytes of both pipelines through prof2pprof.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/model/checker.h"
#include "tests/merge_test_util.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace merge_property_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::MergeTexts;
using testing::NamedText;

// Types from a small pool, so that random profiles share types, differ in the set of types
// (union) and measure the same type in different units (conversion). Values are kept small
// enough that conversion cannot overflow.
void UseSharedTypes(Profile* p, std::mt19937_64* random) {
  static const std::vector<std::vector<ValueType>> kPool = {
      {{"samples", "count"}},
      {{"cpu", "nanoseconds"}, {"cpu", "microseconds"}, {"cpu", "milliseconds"}},
      {{"alloc", "bytes"}, {"alloc", "kilobytes"}, {"alloc", "megabytes"}},
      {{"wall", "seconds"}, {"wall", "ms"}},
  };
  std::vector<ValueType> types;
  for (const auto& choices : kPool) {
    if ((*random)() % 2 == 0) types.push_back(choices[(*random)() % choices.size()]);
  }
  if (types.empty()) types.push_back(kPool[0][0]);
  std::shuffle(types.begin(), types.end(), *random);
  p->header.types = types;
  p->header.default_type =
      (*random)() % 2 == 0 ? types[(*random)() % types.size()].type : std::string();
  for (Sample& s : p->samples) {
    s.values.resize(types.size());
    for (int64_t& v : s.values) v = static_cast<int64_t>((*random)() % 2001) - 1000;
  }
}

std::vector<NamedText> RandomInputs(testing::RandomProfileGenerator* generator,
                                    std::mt19937_64* random) {
  std::vector<Profile> pool;
  for (int i = 0; i < 3; ++i) {
    pool.push_back(generator->Next());
    if ((*random)() % 4 != 0) UseSharedTypes(&pool.back(), random);
  }
  // Sometimes the same profile twice: identical sources and definitions meet.
  std::vector<NamedText> inputs;
  for (int i = 0; i < 3; ++i) {
    const size_t pick = (*random)() % 3 == 0 ? (*random)() % 3 : i;
    inputs.push_back({"in" + std::to_string(pick), ToCanonicalText(pool[pick])});
  }
  return inputs;
}

const MergeOptions kAllOptions[] = {{false, false, false, {}},
                                    {true, false, false, {}},
                                    {false, true, false, {}},
                                    {true, true, false, {}}};

std::string Name(const MergeOptions& o) {
  return std::string(o.aggregate ? "--aggregate " : "") + (o.drop_sources ? "--drop-sources" : "");
}

TEST(MergeProperty, TreeOfMergesEqualsOneMerge) {
  testing::RandomProfileGenerator generator(20261123);
  std::mt19937_64 random(6);
  int merged = 0;
  for (int round = 0; round < 300; ++round) {
    const std::vector<NamedText> in = RandomInputs(&generator, &random);
    for (const MergeOptions& options : kAllOptions) {
      std::string flat;
      try {
        flat = MergeTexts(in, options);
      } catch (const ProfError& e) {
        // Only refused unit conflicts (random units of random types) may fail, and then every
        // grouping fails.
        EXPECT_NE(std::string(e.what()).find("cannot be converted"), std::string::npos) << e.what();
        EXPECT_THROW(MergeTexts({in[0], {"bc", MergeTexts({in[1], in[2]}, options)}}, options),
                     ProfError);
        continue;
      }
      ++merged;
      const std::string left =
          MergeTexts({{"ab", MergeTexts({in[0], in[1]}, options)}, in[2]}, options);
      const std::string right =
          MergeTexts({in[0], {"bc", MergeTexts({in[1], in[2]}, options)}}, options);
      ASSERT_EQ(left, flat) << Name(options) << "\n" << in[0].text << in[1].text << in[2].text;
      ASSERT_EQ(right, flat) << Name(options) << "\n" << in[0].text << in[1].text << in[2].text;
      // The output is a valid profile, and merging it alone changes nothing.
      ASSERT_NO_THROW(testing::Parse(flat)) << flat;
      ASSERT_EQ(MergeTexts({{"flat", flat}}, options), flat);
    }
  }
  EXPECT_GT(merged, 900);  // the property was really exercised
}

TEST(MergeProperty, PprofIsTheBytesOfBothPipelines) {
  testing::RandomProfileGenerator generator(20261124);
  std::mt19937_64 random(18);
  int compared = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<NamedText> in = RandomInputs(&generator, &random);
    for (const bool drop_sources : {false, true}) {
      const MergeOptions raw{false, drop_sources, false, {}};
      const MergeOptions aggregate{true, drop_sources, false, {}};
      std::string direct;
      try {
        direct = testing::MergeTextsToPprof(in, raw);
      } catch (const ProfError&) {
        // Units that cannot be merged: the pipeline fails as well.
        EXPECT_THROW(MergeTexts(in, aggregate), ProfError);
        continue;
      }
      ++compared;
      const std::string aggregated = MergeTexts(in, aggregate);
      // prof-merge --aggregate | prof2pprof, and prof-merge | prof2pprof.
      ASSERT_EQ(direct, testing::Prof2Pprof(aggregated)) << aggregated;
      ASSERT_EQ(direct, testing::Prof2Pprof(MergeTexts(in, raw))) << aggregated;
      // A tree whose last level is --pprof: the same bytes.
      ASSERT_EQ(direct, testing::MergeTextsToPprof(
                            {{"ab", MergeTexts({in[0], in[1]}, aggregate)}, in[2]}, raw));
    }
  }
  EXPECT_GT(compared, 300);  // the property was really exercised
}

// Aggregating, the sums are made as the samples arrive while the inputs' types are the first's,
// and from the spool at the end otherwise (after an input of other types, the sums so far go to
// the spool as samples); a recoverable merge always sums at the end. Both give the same bytes.
TEST(MergeProperty, SumsAsSamplesArriveAreTheSumsAtTheEnd) {
  testing::RandomProfileGenerator generator(20261127);
  std::mt19937_64 random(27);
  int compared = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<NamedText> in = RandomInputs(&generator, &random);
    for (const bool drop_sources : {false, true}) {
      const MergeOptions arriving{true, drop_sources, false, {}};
      const MergeOptions at_the_end{true, drop_sources, true, {}};
      std::string expected;
      try {
        expected = MergeTexts(in, at_the_end);
      } catch (const ProfError&) {
        EXPECT_THROW(MergeTexts(in, arriving), ProfError);
        continue;
      }
      ++compared;
      ASSERT_EQ(MergeTexts(in, arriving), expected) << in[0].text << in[1].text << in[2].text;
    }
  }
  EXPECT_GT(compared, 300);  // the property was really exercised
}

// Everything before the first body record.
std::string Preamble(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    for (const char* body : {"mapping ", "function ", "location ", "stack ", "sample "}) {
      if (line.rfind(body, 0) == 0) return out;
    }
    out += line + "\n";
    pos = end + 1;
  }
  return out;
}

TEST(MergeProperty, PreambleDoesNotDependOnInputOrder) {
  testing::RandomProfileGenerator generator(99);
  std::mt19937_64 random(3);
  const MergeOptions drop{false, true, false, {}};
  for (int round = 0; round < 300; ++round) {
    std::vector<NamedText> in = RandomInputs(&generator, &random);
    std::string forward;
    try {
      forward = MergeTexts(in, drop);
    } catch (const ProfError&) {
      continue;
    }
    std::swap(in[0], in[2]);
    ASSERT_EQ(Preamble(MergeTexts(in, drop)), Preamble(forward));
  }
}

TEST(MergeProperty, EverySampleIsKeptWithItsValuesConverted) {
  testing::RandomProfileGenerator generator(5);
  std::mt19937_64 random(8);
  for (int round = 0; round < 200; ++round) {
    const std::vector<NamedText> in = RandomInputs(&generator, &random);
    std::string merged;
    try {
      merged = MergeTexts(in);
    } catch (const ProfError&) {
      continue;
    }
    const Profile out = testing::Parse(merged);
    size_t samples = 0;
    for (const NamedText& t : in) samples += testing::Parse(t.text).samples.size();
    ASSERT_EQ(out.samples.size(), samples);
  }
}

}  // namespace
}  // namespace merge_property_test
}  // namespace proftools
