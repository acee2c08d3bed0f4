// prof2speedscope: a profile (prof text, or anything proftools reads) -> speedscope's file format
// (JSON), which speedscope (www.speedscope.app, or `speedscope FILE` from npm) opens. The writer
// is common/speedscope/speedscope_writer; the program's conventions are cli/writer_program.
#include "common/cli/writer_program.h"
#include "common/speedscope/speedscope_writer.h"

int main(int argc, char** argv) {
  return proftools::RunWriterProgram(
      proftools::kSpeedscopeWriter,
      {"Convert a profile of any format proftools reads (several FILEs are merged into one) into "
       "speedscope's file format (JSON), which speedscope opens. Each thread of each source "
       "(labels pid, tid, thread, comm) is a profile of its own. A thread whose samples all have "
       "a time and a duration, one after the other, weighed by a time equal to the duration, is "
       "an evented profile (speedscope's Time Order view then shows real time); any other is a "
       "sampled profile, each sample's stack weighed by its value of one type (--value). Frames "
       "keep their function's name, file, line and column. The same input always gives the same "
       "bytes. With no FILE, or when FILE is -, reads standard input.",
       "Examples:\n"
       "  prof2speedscope -o cpu.speedscope.json CPU.*.cpuprofile   then open it in speedscope\n"
       "  perf script | perf2prof | prof2speedscope -o perf.speedscope.json\n"
       "  prof2speedscope --value alloc_space heap.pb.gz > heap.speedscope.json\n"},
      argc, argv);
}
