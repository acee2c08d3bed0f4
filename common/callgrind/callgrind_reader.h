// Reading valgrind's callgrind format (callgrind/docs/cl-format.xml) and cachegrind's (a subset:
// fl=, fn=, cost lines, no calls) line by line into a CallGraph: the header lines (version,
// creator, cmd, pid, thread, part, desc, positions, events, event, summary, totals), name
// compression `(ID) name` / `(ID)` in separate id spaces for objects (ob, cob), files (fl, fi,
// fe, cfi, cfl, jfi) and functions (fn, cfn, jfn), relative subpositions (+N, -N, *) for lines
// and instruction addresses, cost lines, and calls (cob= cfi= cfn= calls=COUNT TARGET, then the
// call's inclusive cost line). Jumps (jump=, jcnd=) are read and left out. Errors are
// FILE:LINE; memory grows with distinct names, functions and edges, not with lines.
#ifndef PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_READER_H_
#define PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/model/call_graph.h"

namespace proftools {

struct CallgrindFile {
  std::string creator, cmd;
  std::optional<int64_t> pid, thread;
  std::vector<std::string> events;
  bool has_instr = false, has_line = true;  // positions:
  std::vector<int64_t> summary, totals;     // empty when absent
  uint64_t parts = 0;                       // part: lines seen
  uint64_t jumps = 0;                       // jump= and jcnd= lines left out
  std::unique_ptr<CallGraph> graph;         // null when the file has no events: line
};

// Reads the whole of `stream`, named `name` in errors (ProfError, FILE:LINE).
CallgrindFile ReadCallgrind(ByteStream* stream, const std::string& name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_READER_H_
