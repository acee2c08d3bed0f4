// A profile in the callgrind format as pprof -callgrind writes it, for KCachegrind and
// callgrind_annotate (prof2callgrind):
//
//   positions: instr line
//   events: TYPE(UNIT) ... (one event per value type, named as pprof names them)
//
//   ob=(N) mapping file   fl=(N) function's file   fn=(N) function name
//   ADDRESS LINE VALUES...            the node's flat values (self cost)
//   cfl=(N) ...  cfn=(N) ...          for each callee of the node
//   calls=1 ADDRESS LINE              (a profile has no call counts: 1 says the call happened;
//                                     pprof writes 0, which callgrind_annotate takes for no
//                                     call, counting the inclusive cost as the caller's self)
//   * * VALUES...                     the inclusive values of the calls
//
// A node is a frame at pprof's address granularity: (mapping file, function file, function
// name, line, address), each line of an inlined location a node of its own. Flat values go to
// a sample's innermost frame; an edge (caller -> callee, adjacent in a stack) gets the sample's
// values once per sample even when recursion repeats it, as pprof's graph counts them. Names are
// compressed (`(N) name` at first use, `(N)` after); addresses relative to the last cost line
// (+N, -N, *) where that is shorter. Nodes in order of flat value of the default type, largest
// first, ties by name, file, mapping, line and address: the same profile gives the same bytes.
// Memory grows with distinct stacks, nodes and edges, not samples. What the format cannot keep
// (labels, sources, times, columns) is dropped with a warning. Negative values (a difference of
// profiles) are written signed, as pprof writes them.
#ifndef PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_WRITER_H_
#define PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_WRITER_H_

#include "common/model/writer_spec.h"

namespace proftools {

// prof2callgrind's entry of the writer registry (no options of its own).
extern const WriterSpec kCallgrindWriter;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CALLGRIND_CALLGRIND_WRITER_H_
