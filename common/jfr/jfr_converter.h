// A JFR recording (every chunk of it) into a profile: each event whose type carries a stack
// trace becomes a sample of its own value type (see jfr_codec.h for the names and weights), with
// its time from the chunk's clock, its duration where the event has one, and its thread.
#ifndef PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_
#define PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct JfrOptions {
  // Event types to keep (full names, "jdk.ExecutionSample", or without "jdk."); empty: every
  // event type with stack traces that the recording has.
  std::vector<std::string> events;
};

// Converts the recording `file` (named `context.uri`, `name` in messages) into `sink`.
void ConvertJfr(std::string_view file, const std::string& name, const ReadContext& context,
                const JfrOptions& options, ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_
