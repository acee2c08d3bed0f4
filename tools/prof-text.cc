// prof-text: human-readable reports of a profile, and its canonical text.
#include <string>
#include <utility>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output.h"
#include "common/report/folded_view.h"
#include "common/report/reports.h"
#include "common/report/stack_totals.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "prof-text";

enum class Mode { kTop, kTraces, kTree, kFolded, kCanonical };

void Report(ProfileInputs* inputs, const FilterSpec& spec, Mode mode, const std::string& value,
            ReportOptions options, ByteSink* out) {
  StackTotals totals;
  FilterResult filtered = ReadFiltered(kProgram, inputs, spec, &totals, Reading::kAsReport);
  // Percentages of the profile before frame filters dropped samples, as pprof's -focus.
  if (filtered.filtered) {
    totals.SetTotals(filtered.samples_before_frames, std::move(filtered.values_before_frames));
  }
  options.value_index = ResolveValueIndex(totals.header(), value);
  switch (mode) {
    case Mode::kTop:
      WriteTopReport(totals, options, out);
      break;
    case Mode::kTraces:
      WriteTracesReport(totals, options, out);
      break;
    case Mode::kTree:
      WriteTreeReport(totals, options, out);
      break;
    case Mode::kFolded:
      WriteFoldedReport(totals, options, out);
      break;
    case Mode::kCanonical:
      break;
  }
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Show a profile (prof text, or anything proftools reads) as a report: the functions with "
      "the most flat and cumulative value (--top, the default), each distinct stack with its "
      "total (--traces), a call tree (--tree), FlameGraph folded stacks (--folded), or the "
      "canonical prof text "
      "(--canonical). Several FILEs are one profile, merged as prof-merge merges them; the "
      "options of prof-filter(1) select part of it first. With no FILE, or when FILE is -, "
      "reads standard input.",
      "Examples:\n"
      "  prof-text cpu.prof                       top functions by flat value\n"
      "  prof-text --top --sort cum --nodecount 20 cpu.prof\n"
      "  prof-text --folded cpu.prof | flamegraph.pl > cpu.svg\n"
      "  prof-text --time 10s..20s --label-focus tid=1234 cpu.prof\n"
      "  prof-text --canonical -o golden.prof in.prof\n");
  cli.AddOptions("Mode")("top", "flat and cumulative value per function (default)")(
      "traces", "each distinct stack with its total, largest first")(
      "tree", "a top-down call tree with cumulative and flat values")(
      "folded", "FlameGraph folded stacks: root;...;leaf VALUE")(
      "canonical", "the profile in canonical prof text (formats/prof-text.md section 7)");
  cli.AddOptions("Report")(
      "value", "the value type to report (default: the profile's default type, else its last)",
      cxxopts::value<std::string>(),
      "TYPE")("granularity",
              "frames are functions (default), filefunctions, files, lines, addresses or filelines "
              "(FILE:LINE, frames without a line left out)",
              cxxopts::value<std::string>(), "G")("sort", "top: sort by flat (default) or cum",
                                                  cxxopts::value<std::string>(), "flat|cum")(
      "nodecount", "top: show at most N rows", cxxopts::value<std::string>(), "N")(
      "raw-values", "exact integers instead of scaled values such as 1.5ms or 12MiB");
  AddFilterOptions(&cli);
  cli.AddOptions("Folded view (with --folded, as stackcollapse-perf.pl; see perf2prof(1))")(
      "flamegraph",
      "frame names as stackcollapse-perf.pl writes them, thread name (comm) as the root")(
      "root", "a root frame from labels, e.g. '{comm}-{pid}/{tid}' ('?' for a missing label)",
      cxxopts::value<std::string>(), "TEMPLATE")(
      "annotate", "suffix kernel frames _[k] (kernel), JIT frames _[j] (jit), or both (all)",
      cxxopts::value<std::string>(),
      "WHAT")("unknown-addresses", "unknown frames as [DSO <ADDR>] instead of [DSO]");
  cli.AddMaxInputSizeOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  Mode mode = Mode::kTop;
  int modes = 0;
  for (auto [flag, value] : {std::pair{"top", Mode::kTop}, std::pair{"traces", Mode::kTraces},
                             std::pair{"tree", Mode::kTree}, std::pair{"folded", Mode::kFolded},
                             std::pair{"canonical", Mode::kCanonical}}) {
    if (cli.Has(flag)) {
      mode = value;
      ++modes;
    }
  }
  if (modes > 1) {
    throw UsageError("choose one of --top, --traces, --tree, --folded, --canonical");
  }

  ReportOptions options;
  if (cli.Has("granularity") &&
      !ParseGranularity(cli.Get<std::string>("granularity"), &options.granularity)) {
    throw UsageError(
        "--granularity must be functions, filefunctions, files, lines, addresses or filelines");
  }
  if (cli.Has("sort")) {
    const std::string sort = cli.Get<std::string>("sort");
    if (sort != "flat" && sort != "cum") throw UsageError("--sort must be flat or cum");
    options.sort_by_cum = sort == "cum";
  }
  if (cli.Has("nodecount")) options.node_count = cli.Get<size_t>("nodecount");
  options.raw_values = cli.Has("raw-values");
  FoldedViewOptions view;
  view.flamegraph = cli.Has("flamegraph");
  if (cli.Has("root")) {
    view.root = cli.Get<std::string>("root");
    CheckRootTemplate(view.root);
  }
  if (cli.Has("annotate") && !ParseAnnotate(cli.Get<std::string>("annotate"), &view)) {
    throw UsageError("--annotate must be kernel, jit or all");
  }
  view.unknown_addresses = cli.Has("unknown-addresses");
  if (view.Active() && mode != Mode::kFolded) {
    throw UsageError("--flamegraph, --root, --annotate and --unknown-addresses go with --folded");
  }
  const std::string value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  const FilterSpec spec = ParseFilterOptions(cli);
  options.filter_description = spec.description;
  if (mode == Mode::kCanonical && !value.empty()) {
    throw UsageError("--canonical writes every value type; --value applies to reports");
  }

  ProfileInputs inputs(cli.Inputs(), cli.MaxInputSize());
  Output output(cli.OutputPath());
  if (mode == Mode::kCanonical) {
    CanonicalWriter writer(&output);
    ReadFiltered(kProgram, &inputs, spec, &writer);
  } else if (view.Active()) {
    FoldedView folded(view, value);
    ReadFiltered(kProgram, &inputs, spec, &folded, Reading::kAsReport);
    folded.Write(&output);
  } else {
    Report(&inputs, spec, mode, value, options, &output);
  }
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
