// Fuzzes prof-filter's option values and the filter itself. The input is option lines, then an
// empty line, then a profile:
//
//   time 10%..60%
//   label-focus tid=1..3
//   collapse-recursion
//
//   proftext 1.0
//   ...
//
// Each line `NAME VALUE` (or `NAME` for a flag) becomes `--NAME=VALUE`, parsed as prof-filter
// parses its command line (CommandLine, AddFilterOptions, ParseFilterOptions): a bad value may
// only be a UsageError. When the options parse and the profile reads, the filtered profile must
// pass the checker (a violation there is the filter's bug, not the input's) and read back to its
// own canonical text.
#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/filter/profile_filter.h"
#include "common/model/checker.h"
#include "tests/fuzz/fuzz_util.h"

namespace proftools::fuzz {
namespace {

// A checker violation in the filter's output: the filter wrote an invalid profile.
class FailingHandler : public DiagnosticHandler {
 public:
  void Error(const Diagnostic& diagnostic) override {
    Fail("the filter wrote an invalid profile: " + diagnostic.Format());
  }
};

// Splits the option lines into command-line words; the rest of the input is the profile.
std::vector<std::string> OptionWords(std::string_view bytes, std::string_view* profile) {
  std::vector<std::string> words = {"prof-filter"};
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t end = bytes.find('\n', pos);
    if (end == std::string_view::npos) end = bytes.size();
    const std::string_view line = bytes.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) break;
    const size_t space = line.find(' ');
    const std::string_view name = line.substr(0, space);
    // --help and --version print and exit, as they should; not what is fuzzed here.
    if (name.empty() || name.find("help") != std::string_view::npos || name == "h" ||
        name.find("version") != std::string_view::npos) {
      continue;
    }
    std::string word = "--" + std::string(name);
    if (space != std::string_view::npos) word += "=" + std::string(line.substr(space + 1));
    words.push_back(std::move(word));
  }
  *profile = bytes.substr(std::min(pos, bytes.size()));
  return words;
}

}  // namespace
}  // namespace proftools::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  using namespace proftools::fuzz;
  std::string_view profile;
  const std::vector<std::string> words =
      OptionWords({reinterpret_cast<const char*>(data), size}, &profile);
  std::vector<char*> argv;
  for (const std::string& word : words) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);

  std::string filtered;
  bool wrote = false;
  OnlyOurErrors([&] {
    CommandLine cli("prof-filter", "[OPTION...]", "");
    AddFilterOptions(&cli);
    if (!cli.Parse(static_cast<int>(words.size()), argv.data())) return;  // --help, --version
    const FilterSpec spec = ParseFilterOptions(cli);
    std::unique_ptr<FilterPrepass> prepass;
    if (FilterPrepass::Needed(spec)) {
      prepass = std::make_unique<FilterPrepass>(spec);
      Input first = OpenBytes(profile);
      ReadProfile(first, prepass.get());
    }
    StringSink text;
    CanonicalWriter writer(&text);
    FailingHandler strict;
    CheckingSink checked(&writer, &strict, "(filtered profile)");
    ProfileFilter filter(spec, prepass.get(), &checked, "fuzz");
    Input input = OpenBytes(profile);
    ReadProfile(input, &filter);
    filtered = text.text();
    wrote = true;
  });
  if (wrote) RequireCanonicalRoundTrip(filtered);
  return 0;
}
