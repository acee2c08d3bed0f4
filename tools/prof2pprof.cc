// prof2pprof: a profile (prof text, or anything proftools reads) -> pprof's profile.proto,
// gzipped by default. The writer is common/pprof/pprof_writer (kPprofWriter in pprof_codec); the
// program's conventions are cli/writer_program.
#include "common/cli/writer_program.h"
#include "common/pprof/pprof_codec.h"

int main(int argc, char** argv) {
  return proftools::RunWriterProgram(
      proftools::kPprofWriter,
      {"Convert a profile of any format proftools reads (prof text, pprof, perf script output, "
       "Rprof files, folded stacks; several FILEs are merged into one) into pprof's "
       "profile.proto, gzipped (a .pb.gz that pprof reads). Samples that share stack, source and "
       "labels are summed, as pprof does on loading; sample timestamps and durations are not "
       "labels and are dropped then (--keep-samples keeps them). What pprof has no field for "
       "(meta and source records, unused stacks) travels in comments and labels, so pprof2prof "
       "gives the same profile back (formats/prof-text.md section 8). The same input always "
       "gives the same bytes. With no FILE, or when FILE is -, reads standard input.",
       "Examples:\n"
       "  prof2pprof -o cpu.pb.gz cpu.prof          write a file atomically\n"
       "  prof2pprof -o r.pb.gz Rprof.out             any format proftools reads\n"
       "  prof2pprof -o fleet.pb.gz host*.prof        several inputs merged\n"
       "  prof2pprof --keep-samples cpu.prof > raw.pb.gz\n"},
      argc, argv);
}
