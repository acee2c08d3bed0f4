// Reading a profile of any format the registry knows (common/load/readers.h) into a sink, held
// to the format's rules: the one entry point of every program that reads profiles, and where the
// input policy lives (size caps, --allow-empty, --input-format, the source URI rule).
#ifndef PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_
#define PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/input.h"
#include "common/model/model.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct ReadOptions {
  DiagnosticHandler* handler = nullptr;   // format violations (nullptr: throw at the first)
  DiagnosticHandler* warnings = nullptr;  // converters' warnings (nullptr: dropped)
  uint64_t max_input_size = kDefaultMaxInputSize;  // bytes held in memory (0: no cap)
  uint64_t max_spool_size = kDefaultMaxSpoolSize;  // bytes copied to a temporary file (0: none)
  std::string format;                              // --input-format: a reader's name; "" sniffs
  bool allow_empty = false;  // a converted input without samples is not an error
  // The URI of the source an input gets when its format has none of its own: by default its
  // path ("" for standard input); --source-uri sets it.
  std::optional<std::string> uri;
  // Options of a converter program for the reader it drives (ReadContext::settings).
  ReaderSettings reader_settings;
};

// Reads a profile in any format from `input` into `sink`. Throws ProfError (or reports to the
// handler) when the content is not a profile this build can read.
void ReadProfile(Input& input, ProfileSink* sink, const ReadOptions& options = {});

// What a reader of `input` is given under `options` (ReadProfile's context; a converter program
// that calls its reader itself builds it here too).
ReadContext ReadContextFor(const Input& input, const ReadOptions& options);

// The reader ReadProfile uses for `input` (ChooseReader with options.format).
const ReaderSpec& ReaderFor(const Input& input, const ReadOptions& options);

// The URI of the source of an input read from `input` by default: its name, "" for stdin.
std::string DefaultSourceUri(const Input& input);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_READ_PROFILE_H_
