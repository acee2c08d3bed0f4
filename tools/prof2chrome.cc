// prof2chrome: a profile (prof text, or anything proftools reads) -> Chrome's Trace Event Format
// (JSON) for Perfetto's UI, chrome://tracing and speedscope. The writer is
// common/chrome/trace_writer; the program's conventions are cli/writer_program.
#include "common/chrome/trace_writer.h"
#include "common/cli/writer_program.h"

int main(int argc, char** argv) {
  return proftools::RunWriterProgram(
      proftools::kChromeTraceWriter,
      {"Convert a profile of any format proftools reads (several FILEs are merged into one) into "
       "Chrome's Trace Event Format (JSON), which Perfetto's UI (ui.perfetto.dev), "
       "chrome://tracing and speedscope open. Each thread (labels pid, tid, thread; else each "
       "source) is a track; each sample is a column of nested X events, its stack, at its time "
       "and for its duration (samples without a time laid end to end), its values and labels in "
       "the args of the innermost; the samples array and stackFrames carry the same samples "
       "weighted by one value type, for speedscope. The same input always gives the same bytes. "
       "With no FILE, or when FILE is -, reads standard input.",
       "Examples:\n"
       "  prof2chrome -o cpu.json CPU.*.cpuprofile     then open cpu.json in ui.perfetto.dev\n"
       "  perf script | perf2prof | prof2chrome -o perf.json\n"
       "  prof2chrome --value samples app.prof > trace.json\n"},
      argc, argv);
}
