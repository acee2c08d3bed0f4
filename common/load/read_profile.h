// Reading a profile of any supported format (prof text or pprof, sniffed by OpenInput) into a
// sink, held to the format's rules: the one entry point of every program that reads profiles.
#ifndef PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_
#define PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_

#include <cstdint>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/input.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

// The default cap on a pprof input's (inflated) size: pprof input is decoded in memory, so a
// gzip bomb or a runaway file must stop early. Every program that reads profiles offers
// --max-input-size to change it (CommandLine::AddMaxInputSizeOption).
inline constexpr uint64_t kDefaultMaxPprofSize = uint64_t{1} << 30;  // 1 GiB

struct ReadOptions {
  DiagnosticHandler* handler = nullptr;  // nullptr: throw at the first violation
  uint64_t max_pprof_size = kDefaultMaxPprofSize;
};

// Reads a profile in any supported format from `input` into `sink`. Throws ProfError (or reports
// to the handler) when the content is not a profile this build can read.
void ReadProfile(Input& input, ProfileSink* sink, const ReadOptions& options = {});

// Opens and reads a whole profile into memory.
Profile LoadProfile(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_
