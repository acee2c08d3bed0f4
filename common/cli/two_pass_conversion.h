// The main loop of the converters of profilers' text output (perf2prof, rprof2prof): their
// preamble declares what only the whole input tells (value types per event, a source per
// session), so a first pass scans every input and a second converts it, through a checker (a
// violation there is a bug of the converter, so it throws) into the canonical writer.
#ifndef PROFTOOLS_COMMON_CLI_TWO_PASS_CONVERSION_H_
#define PROFTOOLS_COMMON_CLI_TWO_PASS_CONVERSION_H_

#include <memory>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/output.h"
#include "common/io/spool.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"

namespace proftools {

// The second pass: builds a `Converter` from (sink, scanned inputs, warning handler, options)
// over a checker (a violation is a bug of the converter, so it throws) into `out`, and feeds it
// each input again (`contents[i]` yields input i from its first byte). Returns the converter,
// which only still holds the interned definitions (its sink is gone): the caller decides when
// to free them.
template <typename Converter, typename Scanned, typename Options>
std::unique_ptr<Converter> ConvertScanned(const std::vector<Scanned>& inputs,
                                          const std::vector<ByteStream*>& contents,
                                          const Options& options, DiagnosticHandler* warnings,
                                          ProfileSink* out) {
  std::string names;
  for (const Scanned& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(out, &throw_on_violation, names);
  auto converter = std::make_unique<Converter>(&checked, inputs, warnings, options);
  for (size_t i = 0; i < inputs.size(); ++i) converter->Convert(i, contents[i]);
  converter->Finish();
  return converter;
}

// `scan(path, passes)` opens one input, reads it once (copying a pipe into `passes`' spool) and
// returns what the converter needs to know of it (a type with a `name`). `Converter` is built
// from (sink, scanned inputs, warning handler, options) and has Convert(index, stream) and
// Finish(). Writes the profile to `output_path` ("" for stdout), atomically.
template <typename Converter, typename Options, typename Scan>
void ConvertInTwoPasses(const char* program, const std::vector<std::string>& paths, Scan scan,
                        const Options& options, const std::string& output_path) {
  using Scanned = decltype(scan(std::string(), static_cast<TwoPassInput*>(nullptr)));
  std::vector<Scanned> inputs;
  std::vector<std::unique_ptr<TwoPassInput>> passes;
  for (const std::string& path : paths) {
    passes.push_back(std::make_unique<TwoPassInput>(path));
    inputs.push_back(scan(path, passes.back().get()));
  }

  Output output(output_path);
  CanonicalWriter writer(&output);
  WarningPrinter warnings(program);
  std::vector<ByteStream*> contents;
  for (size_t i = 0; i < inputs.size(); ++i) contents.push_back(passes[i]->Again(inputs[i].name));
  std::unique_ptr<Converter> converter =
      ConvertScanned<Converter>(inputs, contents, options, &warnings, &writer);
  output.Commit();
  // Deliberately never destroyed: the process ends right after, and freeing hundreds of
  // thousands of interned stacks and frames one by one took a tenth of a large conversion.
  // Only here, in the programs' main path: tests and fuzzers call ConvertScanned and free it.
  converter.release();
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_TWO_PASS_CONVERSION_H_
