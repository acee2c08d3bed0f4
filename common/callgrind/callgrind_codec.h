// valgrind's callgrind and cachegrind output (callgrind.out.PID, cachegrind.out.PID, and what
// pprof -callgrind writes) as the registry sees it. What a profile gets from a file:
// - one source of type "callgrind" (its uri the path);
// - one value type per event, named as the event (Ir, Dr, D1mr, ...), unit `count`: every
//   event valgrind counts is a count of instructions, accesses, misses or branches (an event
//   the reader does not know is a count too); then, when the file has calls=, the type `calls`
//   (count): how many times the frame's function was called from its parent frame (and from
//   itself, for recursion). The default type is the first event;
// - stacks built from the calls (call_graph.h: an approximation, with exact per-function self
//   costs and per-edge call counts); frames are functions, in a mapping named after the object
//   (ob=), their file the fl= one; lines and instruction addresses are summed per function;
// - labels `pid` (number) and `thread` (valgrind's thread number, a string) on every sample
//   when the header has them: --separate-threads=yes files read together are one profile with
//   a thread label each; meta `cmd` and `creator`.
#ifndef PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_CODEC_H_
#define PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "callgrind", streaming (memory grows with distinct functions and
// calls).
extern const ReaderSpec kCallgrindReader;

// kCertain for a first line "# callgrind format"; kLikely for text whose lines before the body
// are callgrind's or cachegrind's header lines (version:, creator:, desc:, cmd:, pid:, events:,
// positions: ...) with an events: line among them.
int SniffCallgrind(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_CODEC_H_
