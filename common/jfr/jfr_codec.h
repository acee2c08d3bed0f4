// Java Flight Recorder recordings (.jfr: the JDK's -XX:StartFlightRecording and jcmd JFR.start,
// async-profiler's -o jfr) as the registry sees them: chunks that begin with the magic "FLR\0".
//
// Read a chunk at a time (a chunk is held whole, capped by --max-input-size: constant pools and
// metadata are found by offset), twice when there are several chunks. Each
// event of a type with stack traces is a sample with the chunk's clock's time and these values:
//   jdk.ExecutionSample          samples/count, cpu/nanoseconds (the recording's period)
//   jdk.NativeMethodSample       native-samples/count, native/nanoseconds (its period)
//   jdk.ObjectAllocationSample   alloc-samples/count, alloc/bytes (the event's weight)
//   jdk.ObjectAllocationInNewTLAB   tlab-objects/count, tlab/bytes (the new TLAB's size)
//   jdk.ObjectAllocationOutsideTLAB outside-tlab-objects/count, outside-tlab/bytes
//   any other type with a duration (jdk.JavaMonitorEnter, jdk.ThreadSleep, jdk.ThreadPark,
//   jdk.SocketRead, ...): its name in kebab case ("java-monitor-enter")/nanoseconds, the
//   sample's duration and weight both the event's duration; without one, NAME/count.
// Labels: thread (the Java name, else the OS name), tid (the OS thread id), java-thread-id,
// state (execution samples' thread state), class (allocations' class), event (the JFR type).
#ifndef PROFTOOLS_COMMON_JFR_JFR_CODEC_H_
#define PROFTOOLS_COMMON_JFR_JFR_CODEC_H_

#include <string_view>

#include "common/jfr/jfr_converter.h"
#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "jfr", two passes (one for a recording of one chunk), converter
// jfr2prof.
extern const ReaderSpec kJfrReader;

// kCertain when `head` starts with "FLR\0" and a major version 2.
int SniffJfr(std::string_view head, bool text);

// Reads `input` a chunk at a time (a chunk capped by `context.max_input_size`; a file opened
// again for the second pass, anything else spooled) and converts it with `options`.
void ReadJfr(Input& input, const ReadContext& context, const JfrOptions& options,
             ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_CODEC_H_
