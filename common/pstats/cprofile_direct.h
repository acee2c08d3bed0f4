// cProfile's files read straight from their bytes. What `cProfile -o` and dump_stats write has
// one shape: a dict (file, line, name) -> (primitive calls, calls, self seconds, cumulative
// seconds, callers), each caller (file, line, name) -> (calls, primitive calls, self,
// cumulative), of strings, int32s, binary floats and references to them and to the keys. Read
// as that shape, a value goes from the bytes to the graph (marshal.h reads every object into a
// node first, and the reader then looks each up: 3 million of them in a 20 MB file, a third of
// reading it).
//
// Anything else (the profile module's callers, which are counts; code objects; longs; floats
// as text; a reference to what is not a number, string or key where one belongs) and every
// error make it give up: the caller then reads the file as marshal data (pstats_codec.cc),
// which gives the same graph, or the message. The bytes are untrusted: sizes and references
// are checked before use, nothing nests (a key or value of another shape is given up on), and
// memory grows with the references the data marks, each taking a byte of input at least.
#ifndef PROFTOOLS_COMMON_PSTATS_CPROFILE_DIRECT_H_
#define PROFTOOLS_COMMON_PSTATS_CPROFILE_DIRECT_H_

#include <string_view>

#include "common/pstats/pstats_graph.h"

namespace proftools {

// Reads `bytes` into `graph`, a PstatsGraph nothing was added to: true when read whole; false
// when given up on, `graph` then holding part of it (for the caller to throw away).
bool ReadCProfileDirect(std::string_view bytes, PstatsGraph* graph);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_CPROFILE_DIRECT_H_
