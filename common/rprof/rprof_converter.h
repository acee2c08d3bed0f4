// Converting files written by R's Rprof() into a profile (the mapping is documented in
// man/man1/rprof2prof.1):
//
// - every profiling session (a header line) becomes a source; its samples are worth
//   `samples count` 1 and `cpu nanoseconds` = its interval;
// - with memory profiling anywhere, `alloc bytes` (the positive growth of R's heap since the
//   previous tick, as summaryRprof(memory = "both") computes it) and `duplications count`;
//   the absolute snapshots travel as numeric labels in bytes;
// - frames innermost first, names exactly as written; a `k#l` srcref belongs to the frame after
//   it and gives its location (function, file, line); functions are (name, file) pairs;
// - pseudo-frames: `<toplevel>` for code R ran outside any function (a sample without frames, or
//   a srcref after the outermost frame), `<truncated>` for stacks R cut at its line limit and
//   lines cut short.
//
// Everything is streamed: memory grows with distinct frames and stacks, not with samples.
#ifndef PROFTOOLS_COMMON_RPROF_RPROF_CONVERTER_H_
#define PROFTOOLS_COMMON_RPROF_RPROF_CONVERTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/interner.h"
#include "common/model/model.h"
#include "common/model/sink.h"
#include "common/rprof/rprof_scan.h"

namespace proftools {

struct RprofInput {
  std::string name;  // for messages ("<stdin>" for standard input)
  std::string uri;   // for its sources ("" for standard input)
  RprofPlan plan;    // from the first pass (ScanRprof)
};

// The preamble for converting `inputs`: a source per session (in input order, ids from 1),
// its header line as meta `rprof.header.ID`, the value types, the period of the first session,
// and `cpu` as the default type.
ProfileHeader MakeRprofHeader(const std::vector<RprofInput>& inputs);

struct RprofOptions {
  // Garbage and cut lines are errors instead of warnings.
  bool strict = false;
};

class RprofConverter {
 public:
  // Sends MakeRprofHeader(inputs) to `sink`. Warnings go to `warnings` (which may throw).
  RprofConverter(ProfileSink* sink, const std::vector<RprofInput>& inputs,
                 DiagnosticHandler* warnings, RprofOptions options);
  ~RprofConverter();
  RprofConverter(const RprofConverter&) = delete;
  RprofConverter& operator=(const RprofConverter&) = delete;

  // Converts input `index`, whose content `stream` yields from its first byte (at most
  // plan.bytes of it are read). Inputs must be converted in order.
  void Convert(size_t index, ByteStream* stream);
  // Ends the profile (sink->OnEnd()).
  void Finish();

 private:
  class InputReader;
  friend class InputReader;

  ProfileSink* sink_;
  const std::vector<RprofInput>& inputs_;
  DiagnosticHandler* warnings_;
  RprofOptions options_;
  Interner interner_;
  bool memory_types_ = false;
  std::vector<uint64_t> first_source_;  // per input: the source id of its first session
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_RPROF_RPROF_CONVERTER_H_
