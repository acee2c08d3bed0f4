// perf2prof: the text `perf script` prints -> prof text.
#include <string>
#include <vector>

#include "common/base/quantity.h"
#include "common/base/text_syntax.h"
#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output.h"
#include "common/load/two_pass_conversion.h"
#include "common/perf/data/perf_data_converter.h"
#include "common/perf/perf_codec.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace perf2prof {
namespace {

constexpr const char* kProgram = "perf2prof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert a perf.data file, or the text 'perf script' prints, into a prof text profile: "
      "one sample per perf "
      "sample, leaf first, with its timestamp and the labels comm, pid, tid and cpu. Each "
      "event gets two value types: EVENT_samples (count) and EVENT (the sum of periods, or 1 "
      "per sample, in unit count, when perf printed no period and neither --period nor perf script "
      "--header gives it); a sample carries 0 in the other events' "
      "types; event names lose perf's modifiers (cpu-clock:ppp is cpu-clock). Tracepoint "
      "arguments become labels. Frames perf tags (inlined) are inlined lines of their caller's "
      "location; with --show-mmap-events, mappings are real. Lines that are not perf script are "
      "skipped with one warning per input. An input without samples is an error. With no FILE, "
      "or when FILE is -, reads standard input. A perf.data file (perf record's own, or "
      "'perf record -o -' in a pipe) is read and symbolised here, without perf: functions from "
      "the recorded programs' symbol tables, files, lines and inlined frames from their DWARF "
      "(found by build id), kernel functions from /proc/kallsyms when the running kernel is the "
      "recording's.",
      "Examples:\n"
      "  perf2prof perf.data -o cpu.prof                        perf record's file, symbolised\n"
      "  perf record -o - -g ./prog | perf2prof | prof-text     pipe mode\n"
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
  cli.AddOptions("perf.data files")(
      "symfs",
      "find the recorded programs under DIR (a copy of the recorded machine's root), "
      "as perf's --symfs",
      OptionValue(),
      "DIR")("debug-dir",
             "also look for programs and debug files by build id under DIR/.build-id "
             "(before ~/.debug and /usr/lib/debug); repeatable",
             OptionValue(),
             "DIR")("kallsyms",
                    "the kernel's symbols from FILE instead of /proc/kallsyms (used only when the "
                    "running kernel is the recording's, unless FILE is given)",
                    OptionValue(), "FILE")(
      "no-symbolize",
      "addresses and mappings only, no function names (for pprof to symbolise "
      "later)")("no-inline", "no inlined frames (faster: DWARF's inline entries are not read)");
  cli.AllowRepeated("debug-dir");
  cli.AddInputFormatOption();
  cli.AddMaxInputSizeOption();
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

  // perf.data files are read by their reader, given these options; perf script text in two
  // passes below. The first input decides (it is opened once: it may be standard input).
  const std::vector<std::string> paths = cli.Inputs();
  Input first = OpenInput(paths[0]);
  if (read.format.empty() ? LooksLikePerfData(first.head) : read.format == "perf-data") {
    for (const char* option : {"symfs", "kallsyms"}) {
      if (cli.Has(option)) read.reader_settings.emplace_back(option, cli.Get<std::string>(option));
    }
    for (const std::string& dir : cli.GetAll("debug-dir")) {
      read.reader_settings.emplace_back("debug-dir", dir);
    }
    if (cli.Has("no-symbolize")) read.reader_settings.emplace_back("symbolize", "no");
    if (cli.Has("no-inline")) read.reader_settings.emplace_back("inline", "no");
    if (options.period) {
      read.reader_settings.emplace_back("period", std::to_string(*options.period));
      if (options.period_is_time) read.reader_settings.emplace_back("period-is-time", "yes");
    }
    if (options.off_cpu) read.reader_settings.emplace_back("off-cpu", "yes");
    if (options.strict) {
      throw UsageError(
          "--strict applies to perf script text: a perf.data file is read strictly always");
    }
    Output output(cli.OutputPath());
    CanonicalWriter writer(&output);
    if (paths.size() == 1) {
      ReadProfile(first, &writer, read);
    } else {
      for (const std::string& path : paths) {
        if (path == "-") throw UsageError("standard input must be the only input");
      }
      ProfileInputs(paths, read).Read(&writer);
    }
    output.Commit();
    return kExitOk;
  }

  // First pass: the events of every input, so that the preamble declares every value type before
  // the first sample.
  ConvertInTwoPasses<PerfConverter>(
      kPerfScriptReader, cli.Inputs(), read,
      [&](Input& input, const std::string& uri, int spool_fd) {
        return ScanPerfInput(input, uri, read.allow_empty, spool_fd);
      },
      options, cli.OutputPath(), &first);
  return kExitOk;
}

}  // namespace
}  // namespace perf2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::perf2prof::kProgram,
                               [&] { return proftools::perf2prof::Main(argc, argv); });
}
