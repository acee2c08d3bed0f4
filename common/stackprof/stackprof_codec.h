// Ruby's stackprof (StackProf.results): the Marshal `.dump` files StackProf.run(out:) and its
// middleware write, and the JSON `stackprof --json` prints (speedscope's input). What a profile
// gets from a file (docs/stackprof.md):
// - one source of type "stackprof" (its uri the path);
// - the value types `samples` (count) and, by mode, `cpu` or `wall` (nanoseconds) or `objects`
//   (count: allocations, `interval` of them a sample); custom mode has samples only. The period
//   is the interval. A cpu sample weighs the interval, as in stackprof's and speedscope's
//   reports; a wall sample of a raw recording weighs its timestamp delta, as in speedscope's;
//   without raw data every sample weighs the interval;
// - with raw data (StackProf.run(raw: true)): a sample per sample, in order, timed by
//   raw_sample_timestamps (monotonic microseconds) or else by the running sum of
//   raw_timestamp_deltas, each frame at its line where raw_lines gives it (0.2.25 on), else at
//   its method's first line;
// - without raw data: stacks built from the frames' self samples and edges as the call graph
//   formats' are (call_graph.h: exact self values per function, stacks approximated);
// - a function per frame: its label ("Object#fib"), file (none for C functions' "<cfunc>"),
//   first line; the GC's pseudo-frames as stackprof names them ("(garbage collection)");
// - meta: stackprof.version, .mode, .interval, .samples, .gc_samples, .missed_samples and
//   stackprof.metadata.KEY for StackProf.run(metadata:)'s scalar entries.
// Warned of: missed samples; a timer coarser than the interval (cpu mode, raw data).
#ifndef PROFTOOLS_COMMON_STACKPROF_STACKPROF_CODEC_H_
#define PROFTOOLS_COMMON_STACKPROF_STACKPROF_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "stackprof", the whole input in memory (Marshal and JSON).
extern const ReaderSpec kStackprofReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_STACKPROF_STACKPROF_CODEC_H_
