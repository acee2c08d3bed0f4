// prof2callgrind: a profile (prof text, or anything proftools reads) -> the callgrind format, as
// pprof -callgrind writes it, for KCachegrind and callgrind_annotate. The writer is
// common/callgrind/callgrind_writer; the program's conventions are cli/writer_program.
#include "common/callgrind/callgrind_writer.h"
#include "common/cli/writer_program.h"

int main(int argc, char** argv) {
  return proftools::RunWriterProgram(
      proftools::kCallgrindWriter,
      {"Convert a profile of any format proftools reads (several FILEs are merged into one) into "
       "the callgrind format, as pprof -callgrind writes it, which KCachegrind opens and "
       "callgrind_annotate reads: one event per value type, a node per frame (function, file, "
       "line, address) with its flat values, and for each caller -> callee edge the values of "
       "the samples through it (call counts are 1: a profile has none). Labels, sources and "
       "times are left out with a warning; negative values (differences) are written signed. The "
       "same input always "
       "gives the same bytes. With no FILE, or when FILE is -, reads standard input.",
       "Examples:\n"
       "  prof2callgrind -o callgrind.out.app app.prof     then kcachegrind callgrind.out.app\n"
       "  perf script | perf2prof | prof2callgrind | callgrind_annotate /dev/stdin\n"
       "  prof2callgrind cpu.pb.gz > cpu.callgrind\n"},
      argc, argv);
}
