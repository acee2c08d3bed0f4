// A profile as Chrome's Trace Event Format (JSON), for Perfetto's UI, chrome://tracing and
// speedscope (prof2chrome). One object:
//
//   {"traceEvents":[...],"samples":[...],"stackFrames":{...},"otherData":{...}}
//
// - traceEvents: per track (a thread: labels pid, tid and thread; else one per source) `M`
//   events naming its process and thread, then every sample as `X` complete events, one per
//   frame of its stack, outermost first, all at the sample's time and of its duration (nested,
//   they draw its stack as a flame chart); the innermost carries `sf` (its stack in
//   stackFrames) and `args`: {"values":{"TYPE/UNIT":N,...},"labels":{KEY:VALUE,...}}.
//   A sample without DURATION lasts the sampling interval (SamplingInterval), cut at the next
//   sample of its track; a sample that starts before the previous one of its track ended is
//   moved to that end (args.time keeps its time); samples without TIME are laid end to end on
//   their track from 0, each as long as its duration or interval.
// - samples + stackFrames: the format's sampled form, which speedscope reads instead of the
//   events: every sample once, `sf` its stack, `weight` its value of one type (--value), and
//   `ts` the sum of the weights before it on its track (in microseconds for a time type):
//   speedscope weighs a sample by the time to the next one, so each track ends with an entry of
//   weight 0 and no stack. stackFrames: one node per distinct frame path, `parent` its caller.
//
// Streaming: traceEvents are written as samples arrive; the samples array goes to an unlinked
// spool file and follows; stackFrames (one entry per distinct path of frames) come last. Memory
// grows with definitions, frame paths and tracks, not with samples. The bytes depend only on the
// profile and the options.
#ifndef PROFTOOLS_COMMON_CHROME_TRACE_WRITER_H_
#define PROFTOOLS_COMMON_CHROME_TRACE_WRITER_H_

#include "common/model/writer_spec.h"

namespace proftools {

// prof2chrome's entry of the writer registry (--value TYPE, --interval DURATION).
extern const WriterSpec kChromeTraceWriter;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_TRACE_WRITER_H_
