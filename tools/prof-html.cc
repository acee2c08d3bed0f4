// prof-html: a profile as one self-contained, interactive HTML report: overall and self lists,
// a flame graph, the sequence view, pprof's call graph (laid out by Graphviz when the page is
// written), the header; opened from disk, no network.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/cli/report_options.h"
#include "common/io/output.h"
#include "common/report/diff_totals.h"
#include "common/report/html_report.h"
#include "common/report/reports.h"
#include "common/report/sample_timeline.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "prof-html";
// Points per row of the timeline: enough to see phases, few enough that the page stays small
// whatever the number of samples.
constexpr uint32_t kTimelineBins = 400;

// The files as given, ", " between them; "" for standard input alone.
std::string Names(const std::vector<std::string>& files) {
  std::string names;
  for (const std::string& file : files) {
    if (file == "-") continue;
    names += (names.empty() ? "" : ", ") + file;
  }
  return names;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Write a profile (prof text, or anything proftools reads) as one self-contained HTML "
      "page: the overall and self lists (by cumulative and flat value, sortable, searchable), a "
      "flame graph or icicle with zoom and search, the sequence view (a sequence of frames with "
      "its cumulative and self value, its callers and callees, extended a frame at a time), "
      "pprof's call graph for each value type (the graph of prof-text --dot, laid out by "
      "Graphviz when the page is written, with pan and zoom), a switch between the profile's value "
      "types, and the sources, meta and filters. The page "
      "needs no network; its state is in the URL fragment, so views can be bookmarked. Several "
      "FILEs are one profile; the options of prof-filter(1) select part of it first. With no "
      "FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof-html cpu.prof -o cpu.html\n"
      "  prof-html --time 10s..20s --value alloc_space heap.pb.gz -o heap.html\n"
      "  prof-html --nodecount 30 cpu.pb.gz -o cpu.html\n");
  cli.AddOptions("Report")("value",
                           "the value type shown first (default: the profile's default type, "
                           "else its last)",
                           OptionValue(), "TYPE")(
      "granularity",
      "frames are functions (default), filefunctions, files, lines, addresses or filelines",
      OptionValue(),
      "G")("title", "the page's title (default: the input files' names)", OptionValue(), "TEXT");
  cli.AddOptions("Differential")(
      "diff-base",
      "show the change from the profile FILE: the lists give this profile's values minus the "
      "base's (as prof-text --diff-base), the flame graph colours each frame red where it grew, "
      "blue where it shrank (as prof-svg --diff-base); no timeline",
      OptionValue(),
      "FILE")("normalize", "with --diff-base: scale the base to this profile's total first");
  cli.AllowRepeated("diff-base");  // several bases are one profile, as several inputs are
  cli.AddOptions("Call graph view (as pprof -svg)")(
      "no-graph", "leave the call graph view out (its layout takes a moment per value type)");
  AddCallGraphOptions(&cli, "Call graph view (as pprof -svg)", "the call graph: ");
  cli.AddOptions("Source pane")(
      "source-path",
      "embed the source lines of the functions with samples, found in DIR and its parents, then "
      "the next DIR (as prof-text --list): selecting a function shows its lines with their "
      "values",
      OptionValue(), "DIR[:DIR...]")(
      "trim-path",
      "with --source-path: remove PREFIX from the profile's file names before looking (default: "
      "up to a --source-path directory's name)",
      OptionValue(), "PREFIX[:PREFIX...]");
  AddFilterOptions(&cli);
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  HtmlReportOptions options;
  options.granularity = GranularityOption(cli);
  // By default the page is named after what it shows: the files as given (standard input
  // gives the default), so that tabs and bookmarks of several reports tell them apart.
  options.title = Names(cli.Inputs());
  if (cli.Has("title")) options.title = cli.Get<std::string>("title");
  if (cli.Has("normalize") && !cli.Has("diff-base")) {
    throw UsageError("--normalize goes with --diff-base");
  }
  if (cli.Has("trim-path") && !cli.Has("source-path")) {
    throw UsageError("--trim-path goes with --source-path");
  }
  if (cli.Has("source-path")) {
    if (options.granularity != Granularity::kFunctions) {
      throw UsageError("--source-path: the source pane shows functions: leave out --granularity");
    }
    options.source = true;
    options.source_path = cli.Get<std::string>("source-path");
    options.trim_path = cli.Has("trim-path") ? cli.Get<std::string>("trim-path") : "";
  }
  // The call graph view: not for a difference (prof-text --dot draws none either).
  ReportOptions graph;
  graph.granularity = options.granularity;
  const bool with_graph = !cli.Has("no-graph") && !cli.Has("diff-base");
  for (const char* option : {"nodecount", "min-percent", "edge-percent", "no-trim"}) {
    if (cli.Has(option) && !with_graph) {
      throw UsageError(std::string("--") + option + " goes with the call graph, which " +
                       (cli.Has("no-graph") ? "--no-graph leaves out"
                                            : "a page with --diff-base does not draw"));
    }
  }
  ReadCallGraphOptions(cli, &graph);
  const std::string value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  const FilterSpec spec = ParseFilterOptions(cli);
  options.filter_description = spec.description;
  graph.filter_description = spec.description;
  graph.active_filters = spec.options;

  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  Output output(cli.OutputPath());
  // A first pass over the sample times (only scanned in prof text) sets the timeline's bins.
  int64_t first = INT64_MAX, last = INT64_MIN;
  inputs.ScanSampleTimes([&](uint64_t, int64_t time, int64_t duration) {
    first = std::min(first, time);
    last = std::max(last, duration > 0 && time <= INT64_MAX - duration ? time + duration : time);
  });
  int64_t width = 0;
  uint32_t bins = 0;
  if (first <= last) {
    const __int128 span = static_cast<__int128>(last) - first + 1;
    bins = static_cast<uint32_t>(std::min<__int128>(kTimelineBins, span));
    width = static_cast<int64_t>((span + bins - 1) / bins);
  }
  // The call graph's tags come from the samples' labels, as for prof-text --dot.
  SampleTimeline totals(
      first, width, bins,
      with_graph ? StackTotals::LabelKeying::kExact : StackTotals::LabelKeying::kNone);
  options.timeline = &totals;
  ReadStackTotals(kProgram, &inputs, spec, &totals);
  options.value_index = ResolveValueIndex(totals.header(), value);
  if (!cli.Has("diff-base")) {
    if (with_graph) options.graph = &graph;
    for (const std::string& warning : WriteHtmlReport(totals, options, &output)) {
      Warn(kProgram, warning);
    }
    output.Commit();
    return kExitOk;
  }
  // As prof-text --diff-base: the base read with the same filters, its types matched (units
  // converted), and one StackTotals of differences; a timeline of differences would mean
  // nothing, so there is none.
  const std::vector<std::string> base_files = cli.GetAll("diff-base");
  ProfileInputs base_inputs(base_files, cli.InputReadOptions());
  StackTotals base;
  ReadStackTotals(kProgram, &base_inputs, spec, &base);
  StackTotals diff;
  DiffStackTotals(totals, base, options.value_index, cli.Has("normalize"), &diff);
  options.timeline = nullptr;
  options.base_name = Names(base_files);
  if (options.base_name.empty()) options.base_name = "standard input";
  WriteHtmlReport(diff, options, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
