// gprof2prof's reader (common/gprof): gmon.out records parsed at their bytes, histogram bins
// credited to the functions they overlap in proportion (as gprof), calls counted per callee
// without recursive ones, and what breaks the format refused with its byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "common/base/diagnostics.h"
#include "common/elf/elf_function_symbols.h"
#include "common/gprof/gmon_file.h"
#include "common/gprof/gprof_codec.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/model/checker.h"
#include "tests/test_util.h"

namespace proftools {
namespace gprof_test {  // a namespace of its own: the tests build as one unit
namespace {

std::string Little(uint64_t value, size_t bytes) {
  std::string out;
  for (size_t i = 0; i < bytes; ++i) out += static_cast<char>(value >> (8 * i) & 0xff);
  return out;
}

// A gmon.out: a histogram of 4 bins over [0x1000, 0x1010) at 100 a second, and arcs.
std::string Gmon(const std::string& bins, const std::string& arcs) {
  std::string out = std::string("gmon") + Little(1, 4) + std::string(12, '\0');
  out += '\0' + Little(0x1000, 8) + Little(0x1010, 8) + Little(4, 4) + Little(100, 4);
  out += std::string("seconds") + std::string(8, '\0') + 's';
  return out + bins + arcs;
}

std::string Arc(uint64_t from, uint64_t to, uint32_t count) {
  return '\1' + Little(from, 8) + Little(to, 8) + Little(count, 4);
}

ElfFunctionTable Table() {
  ElfFunctionTable table;
  table.functions = {{0x1000, 0x1006, "f"}, {0x1006, 0x1010, "g"}};
  return table;
}

// Flat values per function of type `type` (the leaf of each stack).
std::map<std::string, int64_t> Flat(const Profile& profile, size_t type) {
  std::map<std::string, int64_t> flat;
  for (const Sample& sample : profile.samples) {
    const Stack* stack = profile.defs.stacks.Find(sample.stack_id);
    const Location* leaf = profile.defs.locations.Find(stack->location_ids.front());
    flat[profile.defs.functions.Find(leaf->lines.front().function_id)->name] += sample.values[type];
  }
  return flat;
}

// The message Read(gmon) fails with, "" when it reads.
std::string Refusal(const std::string& gmon);

Profile Read(const std::string& gmon) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(gmon), "gmon.out");
  ProfileBuilder builder;
  DiagnosticHandler refuse;
  CheckingSink checked(&builder, &refuse, "gmon.out");
  ReadGprof(input, ReadContext{}, Table(), "app", &checked);
  return builder.Take();
}

std::string Refusal(const std::string& gmon) {
  try {
    Read(gmon);
  } catch (const ProfError& e) {
    return e.diagnostic().Format();
  }
  return "";
}

TEST(Gprof, BinsAreCreditedByOverlapAndCallsCountedWithoutRecursion) {
  // Bins of 4 bytes: [0x1000, 0x1004) 2 samples, all f's; [0x1004, 0x1008) 2, half f's (to
  // 0x1006), half g's; [0x100c, 0x1010) 4, g's.
  const std::string bins = Little(2, 2) + Little(2, 2) + Little(0, 2) + Little(4, 2);
  const std::string arcs =
      Arc(0x1002, 0x1006, 3) + Arc(0x2000, 0x1000, 1) + Arc(0x1008, 0x1006, 5);  // g calling itself
  const Profile profile = Read(Gmon(bins, arcs));
  ASSERT_EQ(profile.header.types.size(), 2u);
  EXPECT_EQ(profile.header.types[0].type, "time");
  EXPECT_EQ(profile.header.period.value, 10000000);
  const auto time = Flat(profile, 0);
  EXPECT_EQ(time.at("f"), 30000000);  // 3 samples of 10 ms
  EXPECT_EQ(time.at("g"), 50000000);
  const auto calls = Flat(profile, 1);
  EXPECT_EQ(calls.at("g"), 3);  // its 5 calls to itself are not counted
  EXPECT_EQ(calls.count("f") == 0 || calls.at("f") == 0, true);  // called from outside
}

TEST(Gprof, SeveralFilesAreSummedAtOneRate) {
  const std::string bins = Little(2, 2) + Little(2, 2) + Little(0, 2) + Little(4, 2);
  const std::string one = Gmon(bins, Arc(0x1002, 0x1006, 3));
  const std::string two = Gmon(Little(1, 2) + std::string(6, '\0'), Arc(0x1002, 0x1006, 4));
  Input first = OpenInputStream(std::make_unique<MemoryStream>(one), "run1/gmon.out");
  Input second = OpenInputStream(std::make_unique<MemoryStream>(two), "run2/gmon.out");
  ProfileBuilder builder;
  DiagnosticHandler refuse;
  CheckingSink checked(&builder, &refuse, "run1/gmon.out");
  ReadGprof({&first, &second}, ReadContext{}, Table(), "app", &checked);
  const Profile profile = builder.Take();
  EXPECT_EQ(Flat(profile, 0).at("f"), 40000000);  // 3 samples, and 1 more from the second
  EXPECT_EQ(Flat(profile, 0).at("g"), 50000000);
  EXPECT_EQ(Flat(profile, 1).at("g"), 7);  // 3 calls and 4
  ASSERT_EQ(profile.header.meta.size(), 2u);
  EXPECT_EQ(profile.header.meta[1].key, "gprof.files");
  EXPECT_EQ(profile.header.meta[1].value, "2");

  // Another rate in the second file: refused, naming it.
  std::string other_rate = two;
  other_rate.replace(20 + 1 + 8 + 8 + 4, 4, Little(1000, 4));
  Input again = OpenInputStream(std::make_unique<MemoryStream>(one), "run1/gmon.out");
  Input faster = OpenInputStream(std::make_unique<MemoryStream>(other_rate), "run2/gmon.out");
  ProfileBuilder discarded;
  CheckingSink checked_again(&discarded, &refuse, "run1/gmon.out");
  try {
    ReadGprof({&again, &faster}, ReadContext{}, Table(), "app", &checked_again);
    ADD_FAILURE() << "two rates read";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(),
              "run2/gmon.out: byte 20: histograms of two rates (100 and 1000 a second)");
  }
}

TEST(Gprof, BrokenFilesAreRefusedAtTheirByte) {
  const std::string bins = Little(1, 2) + Little(0, 2) + Little(0, 2) + Little(0, 2);
  const std::string good = Gmon(bins, "");
  EXPECT_EQ(Refusal(good.substr(0, 40)), "gmon.out: byte 37: the file ends in hist_size");
  EXPECT_EQ(Refusal(good + "\x07"),
            "gmon.out: byte 69: record tag 7 (0 histogram, 1 arc, 2 basic blocks)");
  EXPECT_EQ(Refusal(good + Arc(1, 2, 3).substr(0, 10)),
            "gmon.out: byte 78: the file ends in self_pc");
  EXPECT_FALSE(LooksLikeGmon("gmon"));
}

}  // namespace
}  // namespace gprof_test
}  // namespace proftools
