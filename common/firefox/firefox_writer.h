// A profile as the Firefox Profiler's processed profile (prof2firefox), which the profiler
// (profiler.firefox.com, "Load a profile from file") opens: version 48 of the format, with its
// tables per thread, as samply's and several other converters' files are; the profiler upgrades
// it to its own version on load (processed-profile-versioning.ts).
//
// - One thread per source and thread (labels pid, tid, thread; "process" or comm names its
//   process), each with its own stringArray, funcTable, frameTable, stackTable, resourceTable.
// - Samples in time order with their times (milliseconds since meta.startTime, which is the
//   profile's time, else its first sample's, to the whole millisecond); samples without a time are
//   laid end to end from the start, each as long as its duration, else the profile's period,
//   else 1ms.
// - Weights of one value type (--value, default the profile's default type): weightType
//   `tracing-ms` for a time unit, `bytes` for a byte unit, else `samples`. A type named "cpu" of a
//   time unit also becomes threadCPUDelta (µs), the profiler's CPU graph.
// - A long sample (TIME and DURATION, weight N > 1 of a `samples` weight) as background 003_
//   describes for today's format: a sample of weight 1 at its start carrying its CPU delta and a
//   sample of weight N-1 at its end with none, so that a selection of part of the range counts
//   part of it.
// - Functions with their file and start line; frames with their line and column, and their
//   address made relative to their library (libs from mappings, one resource each); a location
//   with inlined lines becomes one frame per line (inlineDepth), outermost first.
//
// Everything is held until the end (the format is tables per thread); the bytes depend only on
// the profile and the options.
#ifndef PROFTOOLS_COMMON_FIREFOX_FIREFOX_WRITER_H_
#define PROFTOOLS_COMMON_FIREFOX_FIREFOX_WRITER_H_

#include "common/model/writer_spec.h"

namespace proftools {

inline constexpr int kWrittenProcessedVersion = 48;

// prof2firefox's entry of the writer registry (--value TYPE).
extern const WriterSpec kFirefoxWriter;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_FIREFOX_WRITER_H_
