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
  std::string names;
  for (const Scanned& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(&writer, &throw_on_violation, names);
  WarningPrinter warnings(program);
  // Deliberately never destroyed: the process ends right after, and freeing hundreds of
  // thousands of interned stacks and frames one by one took a tenth of a large conversion.
  Converter& converter = *new Converter(&checked, inputs, &warnings, options);
  for (size_t i = 0; i < inputs.size(); ++i) converter.Convert(i, passes[i]->Again(inputs[i].name));
  converter.Finish();
  output.Commit();
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_TWO_PASS_CONVERSION_H_
