// A profile as speedscope's file format (prof2speedscope): one object,
//
//   {"$schema":"https://www.speedscope.app/file-format-schema.json","exporter":"proftools",
//    "activeProfileIndex":N,"shared":{"frames":[...]},"profiles":[...]}
//
// (N: the first profile weighed by the profile's default type; `name`: meta speedscope.name.)
// - frames: each distinct (function name, file, line, column) of the stacks' lines, outermost
//   inlined line first; a location without lines is named by its mapping's file ("[libc.so.6]")
//   or address, as the reports name it.
// - profiles: one per source and thread (labels pid, tid, thread; comm names it too), in order of
//   first sample, named by its thread label (else its comm, else its source's file), with
//   " (tid N)" or " (pid N)" when the labels say so and " [source N]" when there are several.
//   `evented` when every sample of the thread has a TIME and a DURATION, they follow each other
//   without overlapping, and the weighing type is a time whose value is the duration (so that
//   speedscope's weights, the distances between events, are the values): frames opened and
//   closed at the samples' times, in nanoseconds (relative to the thread's first sample when
//   beyond 2^53, JavaScript's exact integers). Otherwise `sampled`: each sample's stack, root
//   first, weighed by its value of one type (--value, default the profile's default type, but
//   for a thread whose samples are all 0 in it the first type it has values of: a speedscope
//   file read back has one type per unit, each thread's values in one).
//
// Samples are not held in memory: a fixed-size record per sample goes to a temporary file and
// is read back thread by thread at the end (track_records). The bytes depend only on the profile
// and the options.
#ifndef PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_WRITER_H_
#define PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_WRITER_H_

#include "common/model/writer_spec.h"

namespace proftools {

// prof2speedscope's entry of the writer registry (--value TYPE).
extern const WriterSpec kSpeedscopeWriter;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_WRITER_H_
