// perf2prof: the text `perf script` prints -> prof text.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/two_pass_conversion.h"
#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/perf/perf_converter.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "perf2prof";

// Opens `path`, refuses other profile formats, and scans it.
PerfInput Scan(const std::string& path, TwoPassInput* passes) {
  Input input = OpenInput(path);
  switch (input.format) {
    case InputFormat::kProfText:
      throw ProfError(input.name, "is already a prof text profile (read it with prof-text)");
    case InputFormat::kPprof:
      throw ProfError(input.name, "is a pprof protobuf profile, not perf script output");
    case InputFormat::kLegacyPprof:
      throw ProfError(input.name, input.hint);
    case InputFormat::kEmpty:
    case InputFormat::kOther:
      break;
  }
  PerfInput scanned;
  scanned.name = input.name;
  scanned.uri = path == "-" ? "" : path;
  scanned.plan = ScanPerfScript(input.stream.get(), input.name, passes->spool_fd());
  if (scanned.plan.samples == 0 && scanned.plan.unknown_lines > 0) {
    throw ProfError(input.name,
                    "not perf script output: no line is a sample header such as "
                    "'comm 1234 [000] 12.345678: 250000 cpu-clock:'");
  }
  return scanned;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert the text 'perf script' prints into a prof text profile: one sample per perf "
      "sample, leaf first, with its timestamp and the labels comm, pid, tid and cpu. Each "
      "event gets two value types: EVENT_samples (count) and EVENT (the sum of periods, or 1 "
      "per sample when perf printed no period); a sample carries 0 in the other events' "
      "types. Lines that are not perf script are skipped with one warning per input. With no "
      "FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  perf script | perf2prof | prof-text                    top functions\n"
      "  perf script | perf2prof | prof2pprof -o cpu.pb.gz      for pprof\n"
      "  perf2prof out.txt | prof-text --folded --flamegraph | flamegraph.pl > cpu.svg\n"
      "  perf2prof out.txt | prof-text --value cycles_samples   count samples, not periods\n");
  cli.AddOptions()("strict", "a line that is not perf script is an error instead of a warning");
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  PerfOptions options;
  options.strict = cli.Has("strict");

  // First pass: the events of every input, so that the preamble declares every value type before
  // the first sample.
  ConvertInTwoPasses<PerfConverter>(kProgram, cli.Inputs(), Scan, options, cli.OutputPath());
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
