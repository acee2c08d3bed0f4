// rprof2prof: files written by R's Rprof() -> prof text.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/two_pass_conversion.h"
#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/rprof/rprof_converter.h"
#include "common/rprof/rprof_scan.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "rprof2prof";

// Opens `path`, refuses what is not Rprof output, and scans it. An empty input (R wrote
// nothing: a failed run) is an error unless `allow_empty`.
RprofInput Scan(const std::string& path, TwoPassInput* passes, bool allow_empty) {
  Input input = OpenInput(path);
  switch (input.format) {
    case InputFormat::kProfText:
      throw ProfError(input.name, "is already a prof text profile (read it with prof-text)");
    case InputFormat::kPprof:
      throw ProfError(input.name, "is a pprof protobuf profile, not Rprof output");
    case InputFormat::kLegacyPprof:
      throw ProfError(input.name, input.hint);
    case InputFormat::kEmpty:
      if (allow_empty) break;
      throw ProfError(input.name,
                      "empty input: an Rprof file starts with a header line (--allow-empty "
                      "converts it to a profile without samples)");
    case InputFormat::kOther:
      break;
  }
  RprofInput scanned;
  scanned.name = input.name;
  scanned.uri = path == "-" ? "" : path;
  if (input.format == InputFormat::kEmpty) return scanned;  // no session
  scanned.plan = ScanRprof(input.stream.get(), input.name, passes->spool_fd());
  return scanned;
}

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
  cli.AddOptions()("strict", "treat garbage and cut-short lines as errors instead of warnings")(
      "allow-empty", "an empty input gives a profile without samples, not an error");
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  RprofOptions options;
  options.strict = cli.Has("strict");

  // First pass: every session of every input, so that the preamble can declare all sources and
  // value types before the first sample.
  const bool allow_empty = cli.Has("allow-empty");
  ConvertInTwoPasses<RprofConverter>(
      kProgram, cli.Inputs(),
      [&](const std::string& path, TwoPassInput* passes) {
        return Scan(path, passes, allow_empty);
      },
      options, cli.OutputPath());
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
