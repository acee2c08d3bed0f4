// Fuzzes folded2prof's reader: any bytes are read (checked: the profile it makes must keep the
// format's rules) or refused with an input error; canonical text that reads back to itself.
#include "common/folded/folded_reader.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The last byte picks options, so that every path is fuzzed.
  const uint8_t pick = size > 0 ? data[size - 1] : 0;
  FoldedOptions options;
  options.thread_root = pick & 1;
  options.keep_annotations = pick & 2;
  options.plain_frames = pick & 4;
  options.raw_names = pick & 8;
  options.skip_invalid = pick & 16;
  options.allow_empty = pick & 32;
  if (pick & 64) options.type = {"wall", "milliseconds"};
  options.max_line = 4096;  // the cap's path too, within libFuzzer's 8 KiB inputs
  std::string canonical;
  const fuzz::Outcome outcome = fuzz::OnlyOurErrors([&] {
    Input input = fuzz::OpenBytes(bytes);
    fuzz::NullHandler warnings;
    FoldedReader reader(options, &warnings);
    reader.Add(input, "fuzz");
    StringSink text;
    CanonicalWriter writer(&text);
    DiagnosticHandler bugs;
    CheckingSink checked(&writer, &bugs, "fuzz");
    reader.Finish(&checked);
    canonical = text.text();
  });
  if (outcome.failed) {
    fuzz::Require(outcome.diagnostic.rule == Rule::kInput,
                  "the reader's output breaks a rule: " + outcome.diagnostic.Format());
    return 0;
  }
  fuzz::RequireCanonicalRoundTrip(canonical);
  return 0;
}
