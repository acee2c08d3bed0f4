// prof2firefox: a profile (prof text, or anything proftools reads) -> the Firefox Profiler's
// processed profile (JSON), which profiler.firefox.com opens from a file. The writer is
// common/firefox/firefox_writer; the program's conventions are cli/writer_program.
#include "common/cli/writer_program.h"
#include "common/firefox/firefox_writer.h"

int main(int argc, char** argv) {
  return proftools::RunWriterProgram(
      proftools::kFirefoxWriter,
      {"Convert a profile of any format proftools reads (several FILEs are merged into one) into "
       "the Firefox Profiler's processed profile format (JSON, version 48, which the profiler "
       "upgrades on load), for profiler.firefox.com's \"Load a profile from file\". Each thread "
       "(labels pid, tid, thread; else each source) is a thread of the profile; its samples keep "
       "their times and stacks, weighted by one value type (--value): a time as tracing-ms, bytes "
       "as bytes, else as sample counts; a type named cpu also becomes the CPU graph "
       "(threadCPUDelta). The same input always gives the same bytes. With no FILE, or when FILE "
       "is -, reads standard input.",
       "Examples:\n"
       "  perf script | perf2prof | prof2firefox -o perf.json   then load perf.json in "
       "profiler.firefox.com\n"
       "  prof2firefox --value samples app.prof > app.json\n"
       "  prof2firefox -o out.json CPU.*.cpuprofile\n"},
      argc, argv);
}
