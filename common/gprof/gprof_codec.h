// gprof's gmon.out with the executable it came from, as a profile (gprof2prof). What a profile
// gets:
// - one source of type "gprof" (its uri the gmon.out's path), meta gprof.executable;
// - the value type `time` (nanoseconds: the histogram's samples at its rate, "Each sample counts
//   as 0.01 seconds") and, when the file has call arcs, `calls` (count); the period, one
//   sample's share of a second (cpu nanoseconds);
// - each function's self time as gprof attributes the histogram: a bin's samples split among
//   the functions it overlaps in proportion to the overlap (functions from the executable's
//   symbol table, elf_function_symbols.h), so that `prof-text --top` gives `gprof -b -p`'s self
//   seconds and `--value calls` its calls (a function's calls to itself left out, as gprof's
//   flat profile leaves them out; its call graph shows them as "+N");
// - stacks built from the arcs as callgrind's and pstats' calls are (call_graph.h), each arc
//   weighing its callee's total time in proportion to its calls, as gprof -q propagates it, a
//   cycle of calls one node as in gprof (Propagation in the .cc says how arcs within one weigh).
// Samples outside every function and arcs to no function are left out with a warning; basic
// block counts are not read.
#ifndef PROFTOOLS_COMMON_GPROF_GPROF_CODEC_H_
#define PROFTOOLS_COMMON_GPROF_GPROF_CODEC_H_

#include <string>
#include <vector>

#include "common/elf/elf_function_symbols.h"
#include "common/model/reader_spec.h"

namespace proftools {

// Reads `gmon` (a gmon.out) of the executable whose functions are `functions` (read from
// `executable`) into `sink`. Throws ProfError.
void ReadGprof(Input& gmon, const ReadContext& context, const ElfFunctionTable& functions,
               const std::string& executable, ProfileSink* sink);
// The same for several gmon.out files of one executable (several runs), summed as gprof sums
// them (their histograms' samples and their arcs' calls; one rate for all): one profile, its
// source the first file's, meta gprof.files their number.
void ReadGprof(const std::vector<Input*>& gmons, const ReadContext& context,
               const ElfFunctionTable& functions, const std::string& executable, ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GPROF_GPROF_CODEC_H_
