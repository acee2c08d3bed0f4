// Fuzzes every reader of the registry (common/load/readers.h) through ReadProfile, as every
// program reads its inputs: the first byte picks a reader by its place in the table (or, past
// the table, lets the sniffers choose), the rest is the input. A new codec is fuzzed here from
// its first commit. Checks: nothing but the library's errors escapes; a reader that does not
// check itself never delivers what breaks a format rule (the registry's checker throws a rule
// other than `input`: a bug of the reader); what is read has canonical text that reads back to
// itself; sniffing is a function of the first bytes (the same reader twice).
//
// FUZZ_READER=NAME in the environment pins the reader (the first byte is then ignored), so that a
// run's CPU time goes to one codec: `tests/fuzz/run.sh 3600 readers:cpuprofile`.
#include <cstdlib>

#include "tests/fuzz/fuzz_util.h"

namespace {

// The reader FUZZ_READER names, or null; an unknown name aborts the run at its first input.
const proftools::ReaderSpec* PinnedReader() {
  static const proftools::ReaderSpec* const pinned = [] {
    const char* name = std::getenv("FUZZ_READER");
    if (name == nullptr || *name == '\0') return static_cast<const proftools::ReaderSpec*>(nullptr);
    const proftools::ReaderSpec* spec = proftools::FindReader(name);
    if (spec == nullptr) {
      std::fprintf(stderr, "fuzz_readers: FUZZ_READER=%s names no reader\n", name);
      std::abort();
    }
    return spec;
  }();
  return pinned;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  if (size == 0) return 0;
  const std::vector<const ReaderSpec*>& readers = proftools::Readers();
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const ReaderSpec* chosen = PinnedReader();
  if (chosen == nullptr && data[0] < readers.size()) chosen = readers[data[0]];
  if (chosen != nullptr && chosen->only_advises) chosen = nullptr;  // nothing to read it as

  ReadOptions options;
  options.max_input_size = fuzz::kMaxInflate;
  // A perf.data input names files to symbolise from: under a root that does not exist, the
  // fuzzer's paths read nothing (and each run does not parse this machine's libc's DWARF).
  options.reader_settings = {{"symfs", "/nonexistent-proftools-fuzz-root"}};
  if (chosen != nullptr) options.format = chosen->name;
  const ReaderSpec* reader = chosen;
  std::string canonical;
  const fuzz::Outcome outcome = fuzz::OnlyOurErrors([&] {
    Input input = fuzz::OpenBytes(bytes);
    reader = &ReaderFor(input, options);
    Input again = fuzz::OpenBytes(bytes);
    fuzz::Require(&ReaderFor(again, options) == reader, "the same bytes sniff as another reader");
    StringSink text;
    CanonicalWriter writer(&text);
    ReadProfile(input, &writer, options);
    canonical = text.text();
  });
  if (outcome.failed) {
    if (reader != nullptr && !reader->checks_itself) {
      fuzz::Require(outcome.diagnostic.rule == Rule::kInput,
                    std::string("reader '") + reader->name +
                        "' delivered what breaks a rule: " + outcome.diagnostic.Format());
    }
    return 0;
  }
  fuzz::RequireCanonicalRoundTrip(canonical);
  return 0;
}
