// A JFR recording (every chunk of it) into a profile: each event whose type carries a stack
// trace becomes a sample of its own value type (see jfr_codec.h for the names and weights), with
// its time from the chunk's clock, its duration where the event has one, and its thread.
#ifndef PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_
#define PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct JfrOptions {
  // Event types to keep (full names, "jdk.ExecutionSample", or without "jdk."); empty: every
  // event type with stack traces that the recording has.
  std::vector<std::string> events;
  // Lambda and other hidden classes keep the ids the JVM gave them in this run
  // (App$$Lambda$94+0x00007f602c007c28.1908981452.run instead of App$$Lambda.run).
  bool keep_lambda_ids = false;
};

// Converts the recording `stream` yields (named `context.uri`, `name` in messages) into `sink`,
// a chunk at a time. A recording of several chunks is read twice: `again` then yields it from
// its first byte (valid until the conversion ends).
void ConvertJfr(ByteStream* stream, const std::function<ByteStream*()>& again,
                const std::string& name, const ReadContext& context, const JfrOptions& options,
                ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_CONVERTER_H_
