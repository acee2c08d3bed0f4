// Chrome's performance traces (DevTools' "Save profile", Trace-*.json, node's trace events) as
// the registry sees them: the Trace Event Format, `{"traceEvents": [...]}` or a bare array.
// Read: the V8 CPU profiles of Profile + ProfileChunk events (and the older CpuProfile event),
// one per (pid, id), with labels pid, tid and thread (names from `M` thread_name events); or, in
// a trace without them, its duration events (B/E, X: trace_spans.h). Other events are skipped.
#ifndef PROFTOOLS_COMMON_CHROME_TRACE_CODEC_H_
#define PROFTOOLS_COMMON_CHROME_TRACE_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "chrome-trace", whole input, no converter of its own.
extern const ReaderSpec kChromeTraceReader;

// kCertain for a JSON object whose head holds the key "traceEvents"; kLikely for an array whose
// first element is an object with a "ph" key.
int SniffChromeTrace(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_TRACE_CODEC_H_
