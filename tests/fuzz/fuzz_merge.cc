// Fuzzes prof-merge: the input is two profiles (prof text or pprof) split at the first
// kMergeSeparator line (without one, the input is merged with itself). Whatever the merge
// accepts it must write through its checker into canonical text that reads back to itself.
#include "common/merge/merger.h"
#include "tests/fuzz/fuzz_util.h"

namespace {
constexpr std::string_view kMergeSeparator = "\n--- merge ---\n";
constexpr const char* kMerged = "(merged profile)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  using namespace proftools::fuzz;
  const TwoParts parts =
      SplitAtLine(std::string_view(reinterpret_cast<const char*>(data), size), kMergeSeparator);
  const std::string_view first = parts.first, second = parts.second;
  MergeOptions options;
  options.aggregate = size % 2 == 1;  // both ways, decided by the input
  options.drop_sources = size % 3 == 1;
  options.read.max_input_size = kMaxInflate;
  std::string canonical;
  const Outcome outcome = OnlyOurErrors([&] {
    Merger merger(options);
    Input a = OpenBytes(first, "a");
    merger.Add(a, "a");
    Input b = OpenBytes(second, "b");
    merger.Add(b, "b");
    StringSink text;
    CanonicalWriter writer(&text);
    DiagnosticHandler throw_on_violation;
    CheckingSink checked(&writer, &throw_on_violation, kMerged);
    merger.Finish(&checked);
    canonical = text.text();
  });
  if (outcome.failed) {
    Require(outcome.diagnostic.file != kMerged,
            "the merged profile breaks a rule: " + outcome.diagnostic.Format());
    return 0;
  }
  RequireCanonicalRoundTrip(canonical);
  return 0;
}
