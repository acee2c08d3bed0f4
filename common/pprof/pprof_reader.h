// pprof's profile.proto -> the profile model, streamed into a ProfileSink
// (formats/prof-text.md §8).
//
// The serialized message is held in memory (the caller caps its size); definitions are decoded
// in a first pass over it, then samples are decoded one at a time in a second pass, so memory
// is the input plus the definitions and distinct stacks, never a decoded sample table.
// Records reach the sink in define-before-use order: header, mappings, functions, locations,
// then each new stack just before the first sample that uses it.
//
// Malformed input (bad wire format, string indexes out of range, ids 0 or repeated, references
// to undefined locations or functions, value counts that do not match the sample types, ...)
// throws ProfError naming the input, the record and its byte offset.
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_READER_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_READER_H_

#include <string>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/model/sink.h"

namespace proftools {

struct PprofReadOptions {
  std::string uri;  // the URI of the source a plain pprof profile gets ("" when unknown)
  // Receives warnings (e.g. a location that refers to a missing mapping, which pprof accepts).
  DiagnosticHandler* handler = nullptr;
};

// Decodes `data`, an uncompressed serialized perftools.profiles.Profile named `name` in
// messages, into `sink`.
void ReadPprof(std::string_view data, const std::string& name, ProfileSink* sink,
               const PprofReadOptions& options = {});

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_READER_H_
