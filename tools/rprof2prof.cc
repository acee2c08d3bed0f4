// rprof2prof: files written by R's Rprof() -> prof text.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/load/two_pass_conversion.h"
#include "common/rprof/rprof_codec.h"

namespace proftools {
namespace rprof2prof {
namespace {

constexpr const char* kProgram = "rprof2prof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert files written by R's Rprof() (every mode: plain, memory.profiling, "
      "gc.profiling, line.profiling, appended sessions; gzipped or not) into a prof text "
      "profile. Samples are worth 'samples count' and 'cpu nanoseconds' (the header's "
      "interval); with memory profiling also 'alloc bytes' (as summaryRprof(memory=\"both\")) "
      "and 'duplications count'. Frames are innermost first, names exactly as R wrote them; "
      "with line profiling each frame has its file and line. Several FILEs make one profile "
      "with a source per profiling session. With no FILE, or when FILE is -, reads standard "
      "input.",
      "Examples:\n"
      "  rprof2prof Rprof.out | prof-text                top functions\n"
      "  rprof2prof -o x.prof x.out                      write a file atomically\n"
      "  rprof2prof x.out | prof-text --granularity filelines   time per source line\n"
      "  rprof2prof x.out | prof2pprof -o x.pb.gz        for pprof\n");
  cli.AddOptions()("strict", "treat garbage and cut-short lines as errors instead of warnings");
  cli.AddAllowEmptyOption("an empty input");
  cli.AddInputFormatOption();
  cli.AddMaxInputSizeOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  RprofOptions options;
  options.strict = cli.Has("strict");
  const ReadOptions read = cli.InputReadOptions();

  // First pass: every session of every input, so that the preamble can declare all sources and
  // value types before the first sample.
  ConvertInTwoPasses<RprofConverter>(
      kRprofReader, cli.Inputs(), read,
      [&](Input& input, const std::string& uri, int spool_fd) {
        return ScanRprofInput(input, uri, read.allow_empty, spool_fd);
      },
      options, cli.OutputPath());
  return kExitOk;
}

}  // namespace
}  // namespace rprof2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::rprof2prof::kProgram,
                               [&] { return proftools::rprof2prof::Main(argc, argv); });
}
