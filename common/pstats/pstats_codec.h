// Python's profiler statistics (pstats): what `python3 -m cProfile -o FILE`, `profile` and
// pstats.Stats.dump_stats write: the marshal (marshal.h) of a dict
//   (file, line, function) -> (primitive calls, calls, self seconds, cumulative seconds, callers)
// with callers a dict (file, line, function) -> (calls, primitive calls, self, cumulative) of
// the calls from that caller (cProfile), or -> calls (the pure-Python profile module).
// What a profile gets from a file:
// - one source of type "pstats" (its uri the path);
// - the value types `time` (nanoseconds: the seconds pstats holds, rounded to the nanosecond)
//   and, when the file has callers, `calls` (count: how many times the frame's function was
//   called from its parent frame); the default type is time;
// - stacks built from the callers as from callgrind's calls (call_graph.h: an approximation,
//   with exact per-function self times and per-edge call counts); a function is its name, file
//   and first line (built-ins, file "~", have neither file nor line); each caller edge weighs
//   its cumulative time (the profile module's, without one, its share of the callee's by calls).
#ifndef PROFTOOLS_COMMON_PSTATS_PSTATS_CODEC_H_
#define PROFTOOLS_COMMON_PSTATS_PSTATS_CODEC_H_

#include <string>
#include <string_view>

#include "common/model/call_graph.h"
#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "pstats", the whole input in memory (marshal has no framing to
// stream by).
extern const ReaderSpec kPstatsReader;

// How ReadPstatsGraph reads: cProfile's shape straight from the bytes where it can
// (cprofile_direct.h), else as marshal data (marshal.h); or as marshal data only, for the tests
// and the fuzzer that compare the two.
enum class PstatsReading { kDirectFirst, kMarshalOnly };

// The call graph of pstats data `bytes` (messages name `name`: ProfError), sealed for Emit.
// *shared_by_calls says that callers without times (the profile module's) took shares of their
// callee's cumulative time by calls.
CallGraph ReadPstatsGraph(std::string_view bytes, const std::string& name, PstatsReading reading,
                          bool* shared_by_calls);

// kLikely for binary data starting as marshal writes a dict whose first key is a tuple of three
// (what dump_stats writes), kNotMine otherwise.
int SniffPstats(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_PSTATS_CODEC_H_
