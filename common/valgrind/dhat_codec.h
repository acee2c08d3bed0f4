// valgrind DHAT's output (dhat.out.PID, JSON, dhatFileVersion 2) as a profile. What a profile
// gets from a file:
// - one source of type "dhat" (its uri the path);
// - a stack per program point, from its frames (the allocation function innermost, as DHAT
//   lists them), and one sample per program point with its values; the types, named after
//   the viewer's metrics, by mode: heap: total_bytes, total_blocks, lifetimes (in the file's
//   time unit, when it records block lifetimes), max_bytes, max_blocks, gmax_bytes,
//   gmax_blocks (at t-gmax), end_bytes, end_blocks (at t-end), read_bytes and write_bytes
//   (when it records accesses); copy: total_bytes, total_blocks; ad-hoc: total_units,
//   total_events. The default type is the viewer's default sort, the first;
// - meta: dhat.cmd, dhat.pid, dhat.mode, dhat.verb, dhat.time_unit, dhat.t_gmax, dhat.t_end.
// The per-byte access counts (acc) are not kept.
#ifndef PROFTOOLS_COMMON_VALGRIND_DHAT_CODEC_H_
#define PROFTOOLS_COMMON_VALGRIND_DHAT_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "dhat", the whole input in memory (JSON).
extern const ReaderSpec kDhatReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_VALGRIND_DHAT_CODEC_H_
