// The main loop of the converters whose reader takes two passes (perf2prof, rprof2prof): every
// input scanned first, so that one preamble declares what only the whole input tells (value
// types per event, a source per session), then converted through a checker into the canonical
// writer. The registry's readers of these formats do the same for one input (model/two_pass.h).
#ifndef PROFTOOLS_COMMON_LOAD_TWO_PASS_CONVERSION_H_
#define PROFTOOLS_COMMON_LOAD_TWO_PASS_CONVERSION_H_

#include <memory>
#include <string>
#include <vector>

#include "common/io/input.h"
#include "common/io/output.h"
#include "common/io/spool.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/model/two_pass.h"
#include "common/text/text_writer.h"

namespace proftools {

// `scan(input, uri, spool_fd)` reads one opened input once (copying a pipe to `spool_fd`) and
// returns what the converter needs to know of it (a type with a `name`). Each input must be
// `format` (or be read as it: options.format). `Converter` is built from (sink, scanned inputs,
// warning handler, options) and has Convert(index, stream) and Finish(). Writes the profile to
// `output_path` ("" for stdout), atomically. `first`, when given, is paths[0] already opened
// (a program that looked at its first bytes to choose its path: standard input opens once).
template <typename Converter, typename Options, typename Scan>
void ConvertInTwoPasses(const ReaderSpec& format, const std::vector<std::string>& paths,
                        const ReadOptions& read, Scan scan, const Options& options,
                        const std::string& output_path, Input* first = nullptr) {
  using Scanned = decltype(scan(std::declval<Input&>(), std::string(), -1));
  std::vector<Scanned> inputs;
  std::vector<std::unique_ptr<TwoPassInput>> passes;
  for (const std::string& path : paths) {
    passes.push_back(std::make_unique<TwoPassInput>(path));
    Input opened = first != nullptr && passes.size() == 1 ? std::move(*first) : OpenInput(path);
    RequireFormat(opened, format, read.format);
    passes.back()->CapSpool(&opened, read.max_spool_size);
    inputs.push_back(
        scan(opened, read.uri ? *read.uri : DefaultSourceUri(opened), passes.back()->spool_fd()));
  }

  Output output(output_path);
  CanonicalWriter writer(&output);
  DiagnosticHandler dropped;
  std::vector<ByteStream*> contents;
  for (size_t i = 0; i < inputs.size(); ++i) contents.push_back(passes[i]->Again(inputs[i].name));
  std::unique_ptr<Converter> converter = ConvertScanned<Converter>(
      inputs, contents, options, read.warnings != nullptr ? read.warnings : &dropped, &writer);
  output.Commit();
  // Deliberately never destroyed: the process ends right after, and freeing hundreds of
  // thousands of interned stacks and frames one by one took a tenth of a large conversion.
  // Only here, in the programs' main path: tests and fuzzers call ConvertScanned and free it.
  converter.release();
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_TWO_PASS_CONVERSION_H_
