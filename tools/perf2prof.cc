// perf2prof: the text `perf script` prints -> prof text.
#include <string>
#include <vector>

#include "common/base/quantity.h"
#include "common/base/text_syntax.h"
#include "common/cli/cli.h"
#include "common/load/two_pass_conversion.h"
#include "common/perf/perf_codec.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "perf2prof";

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
  cli.AddOptions()("strict", "a line that is not perf script is an error instead of a warning");
  cli.AddAllowEmptyOption("an input without samples");
  cli.AddOptions()(
      "off-cpu",
      "from sched:sched_switch samples (or perf's offcpu-time), the time each thread spent "
      "switched out, as samples of the type 'off-cpu nanoseconds' (the default type) at its "
      "switch-out stack");
  cli.AddSourceUriOption();
  cli.AddOptions()(
      "period",
      "what one sample is worth when perf printed no period (perf script -F without period): "
      "a number in the event's unit (nanoseconds for cpu-clock and task-clock, else events) or "
      "a duration such as 250us. Without it, the period comes from perf script --header's "
      "'# event :' lines when they give it, else each sample counts 1 (unit count)",
      OptionValue(), "N");
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

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
          "not " +
          Printable(text));
    }
    options.period = period.value;
    options.period_is_time = period.kind == UnitKind::kTime;
  }
  ReadOptions read = cli.InputReadOptions();
  read.uri = cli.SourceUri();

  // First pass: the events of every input, so that the preamble declares every value type before
  // the first sample.
  ConvertInTwoPasses<PerfConverter>(
      kPerfScriptReader, cli.Inputs(), read,
      [&](Input& input, const std::string& uri, int spool_fd) {
        return ScanPerfInput(input, uri, read.allow_empty, spool_fd);
      },
      options, cli.OutputPath());
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
