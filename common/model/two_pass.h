// The second pass of the two-pass readers (perf script, Rprof): their preamble declares what only
// the whole input tells (value types per event, a source per session), so a first pass scans
// every input and a second converts it, through a checker (a violation there is a bug of the
// converter, so it throws). The programs' loop over several inputs is
// common/load/two_pass_conversion.h.
#ifndef PROFTOOLS_COMMON_MODEL_TWO_PASS_H_
#define PROFTOOLS_COMMON_MODEL_TWO_PASS_H_

#include <memory>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/io/spool.h"
#include "common/model/checker.h"
#include "common/model/reader_spec.h"

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

// The registry's read function of a two-pass reader, for one input: `scan(input, uri,
// allow_empty, spool_fd)` first (a regular file is opened again for the second pass, anything
// else is spooled as it is scanned), then the conversion with `options` into `sink`.
template <typename Converter, typename Options, typename Scan>
void ReadInTwoPasses(Input& input, const ReadContext& context, const Options& options, Scan scan,
                     ProfileSink* sink) {
  TwoPassInput passes(input.reopen_path);
  passes.CapSpool(&input, context.max_spool_size);
  const std::vector<decltype(scan(input, std::string(), false, -1))> inputs{
      scan(input, context.uri, context.allow_empty, passes.spool_fd())};
  DiagnosticHandler dropped;
  ConvertScanned<Converter>(inputs, {passes.Again(input.name)}, options,
                            context.warnings != nullptr ? context.warnings : &dropped, sink);
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_TWO_PASS_H_
