// perf2prof: the text `perf script` prints -> prof text.
#include <string>
#include <vector>

#include "common/base/quantity.h"
#include "common/cli/cli.h"
#include "common/cli/two_pass_conversion.h"
#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/perf/perf_converter.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "perf2prof";

struct ScanOptions {
  bool allow_empty = false;  // an input without samples gives a profile without samples
  std::string source_uri;    // --source-uri, in place of the path
  bool has_source_uri = false;
};

// Opens `path`, refuses other profile formats, and scans it.
PerfInput Scan(const std::string& path, TwoPassInput* passes, const ScanOptions& options) {
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
  scanned.uri = options.has_source_uri ? options.source_uri : path == "-" ? "" : path;
  scanned.plan = ScanPerfScript(input.stream.get(), input.name, passes->spool_fd());
  if (scanned.plan.samples == 0 && scanned.plan.unknown_lines > 0) {
    throw ProfError(input.name,
                    "not perf script output: no line is a sample header such as "
                    "'comm 1234 [000] 12.345678: 250000 cpu-clock:'");
  }
  // A failed recording prints nothing: that must not pass for a valid empty profile.
  if (scanned.plan.samples == 0 && !options.allow_empty) {
    throw ProfError(input.name,
                    "no samples: is the input perf script output? (--allow-empty converts it "
                    "to a profile without samples)");
  }
  return scanned;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert the text 'perf script' prints into a prof text profile: one sample per perf "
      "sample, leaf first, with its timestamp and the labels comm, pid, tid and cpu. Each "
      "event gets two value types: EVENT_samples (count) and EVENT (the sum of periods, or 1 "
      "per sample, in unit count, when perf printed no period and neither --period nor perf script "
      "--header gives it); a sample carries 0 in the other events' "
      "types; event names lose perf's modifiers (cpu-clock:ppp is cpu-clock). Tracepoint "
      "arguments become labels. Frames perf tags (inlined) are inlined lines of their caller's "
      "location; with --show-mmap-events, mappings are real. Lines that are not perf script are "
      "skipped with one warning per input. An input without samples is an error. With no FILE, "
      "or when FILE is -, reads standard input.",
      "Examples:\n"
      "  perf script | perf2prof | prof-text                    top functions\n"
      "  perf script | perf2prof | prof2pprof -o cpu.pb.gz      for pprof\n"
      "  perf2prof out.txt | prof-text --folded --flamegraph | flamegraph.pl > cpu.svg\n"
      "  perf2prof out.txt | prof-text --value cycles_samples   count samples, not periods\n"
      "  perf record -e sched:sched_switch -g -a -- ./prog\n"
      "  perf script | perf2prof --off-cpu | prof-text   where threads block\n");
  cli.AddOptions()("strict", "a line that is not perf script is an error instead of a warning")(
      "allow-empty", "an input without samples gives a profile without samples, not an error")(
      "off-cpu",
      "from sched:sched_switch samples (or perf's offcpu-time), the time each thread spent "
      "switched out, as samples of the type 'off-cpu nanoseconds' (the default type) at its "
      "switch-out stack")("source-uri",
                          "the URI recorded for the input's source, in place of its path",
                          cxxopts::value<std::string>(), "URI")(
      "period",
      "what one sample is worth when perf printed no period (perf script -F without period): "
      "a number in the event's unit (nanoseconds for cpu-clock and task-clock, else events) or "
      "a duration such as 250us. Without it, the period comes from perf script --header's "
      "'# event :' lines when they give it, else each sample counts 1 (unit count)",
      cxxopts::value<std::string>(), "N");
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  PerfOptions options;
  options.strict = cli.Has("strict");
  options.off_cpu = cli.Has("off-cpu");
  if (cli.Has("period")) {
    const std::string text = cli.Get<std::string>("period");
    Quantity period;
    std::string error;
    if (!ParseQuantity(text, &period, &error) || period.value <= 0 ||
        period.kind == UnitKind::kBytes) {
      throw UsageError(
          "--period expects a positive number or duration such as 250000 or 250us, "
          "not '" +
          text + "'");
    }
    options.period = period.value;
    options.period_is_time = period.kind == UnitKind::kTime;
  }
  ScanOptions scan_options;
  scan_options.allow_empty = cli.Has("allow-empty");
  if (cli.Has("source-uri")) {
    if (cli.Inputs().size() > 1) {
      throw UsageError("--source-uri names the source of one input; " +
                       std::to_string(cli.Inputs().size()) + " inputs were given");
    }
    scan_options.has_source_uri = true;
    scan_options.source_uri = cli.Get<std::string>("source-uri");
  }

  // First pass: the events of every input, so that the preamble declares every value type before
  // the first sample.
  ConvertInTwoPasses<PerfConverter>(
      kProgram, cli.Inputs(),
      [&](const std::string& path, TwoPassInput* passes) {
        return Scan(path, passes, scan_options);
      },
      options, cli.OutputPath());
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
