// The command line every program shares (common/cli): option values parsed with messages that
// name the option, sizes with units, repeated options refused or combined.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/cli/cli.h"
#include "common/cli/option_values.h"
#include "common/cli/profile_inputs.h"

namespace proftools {
namespace cli_test {  // a namespace of its own: the tests build as one unit
namespace {

// The UsageError message `parse` throws, or "(no error)".
template <typename Parse>
std::string UsageMessage(Parse parse) {
  try {
    parse();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(OptionValues, UnsignedIntegers) {
  EXPECT_EQ(ParseUnsignedOption("--n", "0", 10), 0u);
  EXPECT_EQ(ParseUnsignedOption("--n", "10", 10), 10u);
  EXPECT_EQ(ParseUnsignedOption("--n", "18446744073709551615", UINT64_MAX), UINT64_MAX);
  EXPECT_EQ(UsageMessage([] { ParseUnsignedOption("--nodecount", "x", UINT64_MAX); }),
            "--nodecount expects a non-negative integer, not 'x'");
  EXPECT_EQ(UsageMessage([] { ParseUnsignedOption("--n", "11", 10); }),
            "--n expects a non-negative integer up to 10, not '11'");
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1.5", "0x10", "18446744073709551616"}) {
    EXPECT_NE(UsageMessage([&] { ParseUnsignedOption("--n", bad, UINT64_MAX); }), "(no error)")
        << bad;
  }
}

TEST(OptionValues, SignedIntegersWithinARange) {
  EXPECT_EQ(ParseSignedOption("--l", "1", 1, 9), 1);
  EXPECT_EQ(ParseSignedOption("--l", "9", 1, 9), 9);
  EXPECT_EQ(ParseSignedOption("--l", "-3", -5, 5), -3);
  EXPECT_EQ(ParseSignedOption("--l", "-9223372036854775808", INT64_MIN, 0), INT64_MIN);
  EXPECT_EQ(ParseSignedOption("--l", "9223372036854775807", 0, INT64_MAX), INT64_MAX);
  EXPECT_EQ(UsageMessage([] { ParseSignedOption("--gzip-level", "0", 1, 9); }),
            "--gzip-level expects an integer from 1 to 9, not '0'");
  for (const char* bad : {"10", "-1", "-", "", "x", "9223372036854775808", "1e3"}) {
    EXPECT_NE(UsageMessage([&] { ParseSignedOption("--l", bad, 1, 9); }), "(no error)") << bad;
  }
  EXPECT_NE(UsageMessage([] { ParseSignedOption("--l", "-9223372036854775809", INT64_MIN, 0); }),
            "(no error)");
}

// Powers of 1024 whatever the spelling, as pprof counts sizes and every program reads units.
TEST(OptionValues, ByteSizesArePowersOf1024) {
  const std::vector<std::pair<const char*, uint64_t>> sizes = {
      {"0", 0},
      {"1024", 1024},
      {"1k", 1024},
      {"1K", 1024},
      {"1KiB", 1024},
      {"1kB", 1024},
      {"1KB", 1024},
      {"100M", 100ull << 20},
      {"512MiB", 512ull << 20},
      {"512mib", 512ull << 20},
      {"3MB", 3ull << 20},
      {"1G", 1ull << 30},
      {"1GiB", 1ull << 30},
      {"1GB", 1ull << 30},
      {"2T", 2ull << 40},
      {"2TiB", 2ull << 40},
      {"2TB", 2ull << 40},
      {"7B", 7},
      {"16777215T", 16777215ull << 40},
  };
  for (const auto& [text, bytes] : sizes) {
    EXPECT_EQ(ParseByteSizeOption("--max-input-size", text), bytes) << text;
  }
  EXPECT_EQ(UsageMessage([] { ParseByteSizeOption("--max-input-size", "1Q"); }),
            std::string("--max-input-size expects ") + kByteSizeForm + ", not '1Q'");
  for (const char* bad : {"", "G", "1.5G", "1 G", "-1", "1GiBs", "1Gb2", "1iB", "16777216T",
                          "18446744073709551616"}) {
    EXPECT_NE(UsageMessage([&] { ParseByteSizeOption("--max-input-size", bad); }), "(no error)")
        << bad;
  }
}

// A CommandLine with the kinds of options the programs have, parsed from `args`.
struct Parsed {
  explicit Parsed(std::vector<std::string> args) : cli("prog", "[OPTION...] FILE...", "Test.") {
    cli.AddOptions()("value", "one value", OptionValue(), "TYPE")(
        "nodecount", "a count", OptionValue(), "N")("focus", "repeatable", OptionValue(), "RE")(
        "flag", "a flag");
    cli.AllowRepeated("focus");
    cli.AddMaxInputSizeOption();
    cli.AddOutputOption();
    cli.AddInputs();
    args.insert(args.begin(), "prog");
    args.push_back("input.prof");  // never stdin: a terminal would end the test
    for (std::string& arg : args) argv.push_back(&arg[0]);
    storage = std::move(args);
  }
  void Parse() { ASSERT_TRUE(cli.Parse(static_cast<int>(argv.size()), argv.data())); }
  CommandLine cli;
  std::vector<std::string> storage;
  std::vector<char*> argv;
};

TEST(CommandLine, AValueThatDoesNotParseNamesTheOption) {
  Parsed parsed({"--nodecount", "x"});
  parsed.Parse();
  EXPECT_EQ(UsageMessage([&] { parsed.cli.Get<size_t>("nodecount"); }),
            "--nodecount expects a non-negative integer, not 'x'");
  Parsed size({"--max-input-size", "512MiB"});
  size.Parse();
  EXPECT_EQ(size.cli.MaxInputSize(), 512u << 20);
  Parsed bad_size({"--max-input-size", "lots"});
  bad_size.Parse();
  EXPECT_NE(UsageMessage([&] { bad_size.cli.MaxInputSize(); }).find("--max-input-size expects"),
            std::string::npos);
  Parsed flag({"--flag=maybe"});
  EXPECT_EQ(UsageMessage([&] { flag.Parse(); }),
            "--flag is a flag: it takes no value but true or false, not 'maybe'");
}

TEST(CommandLine, AFlagSetToFalseIsNotGiven) {
  Parsed off({"--flag=false"});
  off.Parse();
  EXPECT_FALSE(off.cli.Has("flag"));
  Parsed on({"--flag"});
  on.Parse();
  EXPECT_TRUE(on.cli.Has("flag"));
}

TEST(CommandLine, ASingleValuedOptionGivenTwiceIsRefused) {
  Parsed twice({"--value", "cpu", "--value", "samples"});
  EXPECT_EQ(UsageMessage([&] { twice.Parse(); }),
            "--value takes one value, but is given 2 times ('cpu', 'samples')");
  Parsed output({"-o", "a", "--output", "b", "-o", "c"});
  EXPECT_EQ(UsageMessage([&] { output.Parse(); }),
            "-o/--output takes one value, but is given 3 times ('a', 'b', 'c')");
  Parsed flags({"--flag", "--flag"});  // a flag said twice means the same
  EXPECT_EQ(UsageMessage([&] { flags.Parse(); }), "(no error)");
}

TEST(CommandLine, ARepeatableOptionKeepsEveryValueInOrder) {
  Parsed parsed({"--focus", "b", "--focus=a", "--focus", "c"});
  parsed.Parse();
  EXPECT_EQ(parsed.cli.GetAll("focus"), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(parsed.cli.GetAll("value"), std::vector<std::string>{});
}

// --help and --version are answered by Parse, which returns (the program then returns its exit
// status) instead of ending the process: a program's main unwinds as on any other return.
TEST(CommandLine, HelpAndVersionAreAnsweredWithoutExiting) {
  for (const char* word : {"--help", "--version"}) {
    Parsed parsed({word});
    testing::internal::CaptureStdout();
    const bool go_on = parsed.cli.Parse(static_cast<int>(parsed.argv.size()), parsed.argv.data());
    const std::string printed = testing::internal::GetCapturedStdout();
    EXPECT_FALSE(go_on) << word;
    EXPECT_EQ(parsed.cli.exit_status(), 0) << word;
    EXPECT_NE(printed.find("prog"), std::string::npos) << word << ": " << printed;
  }
  Parsed parsed({"--value", "cpu"});
  parsed.Parse();  // (asserts that it goes on)
  EXPECT_EQ(parsed.cli.Get<std::string>("value"), "cpu");
}

// The scan in parts (a part on each core) finds what the scan in one finds, whichever part a
// sample line is in, lines across the cut included; a file it cannot cut (a line longer than
// the cut allows, here the last half) is one part.
TEST(ProfileInputs, SampleTimesScannedInPartsAreThoseScannedInOne) {
  using Times = std::vector<std::tuple<uint64_t, int64_t, int64_t>>;
  auto scan = [](const std::string& path, size_t parts, std::vector<size_t>* parts_seen) {
    ProfileInputs inputs({path}, ReadOptions{});
    Times times;
    std::mutex mutex;
    inputs.ScanSampleTimesInParts(
        parts, [&](size_t part, uint64_t source, int64_t time, int64_t duration) {
          std::lock_guard<std::mutex> lock(mutex);
          times.emplace_back(source, time, duration);
          if (std::find(parts_seen->begin(), parts_seen->end(), part) == parts_seen->end()) {
            parts_seen->push_back(part);
          }
        });
    std::sort(times.begin(), times.end());
    return times;
  };
  const std::string dir = ::testing::TempDir();
  std::string text = "proftext 1.0\nsource 1 manual a -\nsource 2 manual b -\ntype cpu count\n";
  text += "function 1 main \"\" \"\" 0\nlocation 1 - 0x1 - 1:1\nstack 1 1\n";
  for (int i = 0; text.size() < (size_t{17} << 18); ++i) {  // past 4 MB, where files are cut
    text += "sample " + std::to_string(1 + i % 2) + " 1 " + std::to_string(1000000 + i * 7) + " " +
            (i % 3 == 0 ? std::string("-") : std::to_string(i % 5)) + " 1\n";
  }
  const std::string cut = dir + "/scan-parts.prof";
  std::ofstream(cut) << text;
  std::vector<size_t> one_part, in_parts;
  const Times whole = scan(cut, 1, &one_part);
  EXPECT_EQ(whole.size(), static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) - 7);
  EXPECT_EQ(scan(cut, 2, &in_parts), whole);
  EXPECT_EQ(in_parts.size(), 2u);
  EXPECT_EQ(scan(cut, 3, &in_parts), whole);
  EXPECT_EQ(in_parts.size(), 3u);
  // A comment of 5 MB from before the middle to the end: no line end to cut at.
  const std::string uncut = dir + "/scan-one-part.prof";
  std::ofstream(uncut) << text.substr(0, text.size() / 3) << "# " << std::string(5 << 20, 'x')
                       << "\n";
  std::vector<size_t> seen;
  scan(uncut, 2, &seen);
  EXPECT_EQ(seen, std::vector<size_t>{0});
}

}  // namespace
}  // namespace cli_test
}  // namespace proftools
