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
#include "common/model/checker.h"

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

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_TWO_PASS_H_
