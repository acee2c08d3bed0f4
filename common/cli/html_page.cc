#include "common/cli/html_page.h"

#include <algorithm>
#include <cstdint>

#include "common/cli/filter_options.h"
#include "common/cli/report_options.h"
#include "common/report/diff_totals.h"
#include "common/report/html/sample_timeline.h"

namespace proftools {
namespace {

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

}  // namespace

void AddHtmlPageOptions(CommandLine* command_line) {
  CommandLine& cli = *command_line;
  AddValueAndGranularityOptions(
      &cli, "Report",
      "the value type shown first (default: the profile's default type, else its last)");
  cli.AddOptions("Report")("title", "the page's title (default: the input files' names)",
                           OptionValue(), "TEXT");
  AddDiffBaseOptions(
      &cli, "Differential",
      "show the change from the profile FILE: the lists give this profile's values minus the "
      "base's (as prof-text --diff-base), the flame graph colours each frame red where it grew, "
      "blue where it shrank (as prof-svg --diff-base); no timeline");
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
}

HtmlPagePlan ParseHtmlPageOptions(const CommandLine& cli) {
  HtmlPagePlan plan;
  HtmlReportOptions& page = plan.page;
  page.granularity = GranularityOption(cli);
  // By default the page is named after what it shows: the files as given (standard input
  // gives the default), so that tabs and bookmarks of several reports tell them apart.
  page.title = Names(cli.Inputs());
  if (cli.Has("title")) page.title = cli.Get<std::string>("title");
  plan.base_files = cli.GetAll("diff-base");
  plan.normalize = cli.Has("normalize");
  if (plan.normalize && plan.base_files.empty()) {
    throw UsageError("--normalize goes with --diff-base");
  }
  if (cli.Has("trim-path") && !cli.Has("source-path")) {
    throw UsageError("--trim-path goes with --source-path");
  }
  if (cli.Has("source-path")) {
    if (page.granularity != Granularity::kFunctions) {
      throw UsageError("--source-path: the source pane shows functions: leave out --granularity");
    }
    page.source = true;
    page.source_path = cli.Get<std::string>("source-path");
    page.trim_path = cli.Has("trim-path") ? cli.Get<std::string>("trim-path") : "";
  }
  // The call graph view: not for a difference (prof-text --dot draws none either).
  plan.graph.granularity = page.granularity;
  plan.with_graph = !cli.Has("no-graph") && plan.base_files.empty();
  for (const char* option : {"nodecount", "min-percent", "edge-percent", "no-trim"}) {
    if (cli.Has(option) && !plan.with_graph) {
      throw UsageError(std::string("--") + option + " goes with the call graph, which " +
                       (cli.Has("no-graph") ? "--no-graph leaves out"
                                            : "a page with --diff-base does not draw"));
    }
  }
  ReadCallGraphOptions(cli, &plan.graph);
  plan.value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  plan.spec = ParseFilterOptions(cli);
  page.filter_description = plan.spec.description;
  plan.graph.filter_description = plan.spec.description;
  plan.graph.active_filters = plan.spec.options;
  return plan;
}

void WriteHtmlPage(const char* program, const HtmlPagePlan& plan, ProfileInputs* inputs,
                   const ReadOptions& read, ByteSink* out) {
  HtmlReportOptions page = plan.page;
  // A first pass over the sample times (only scanned in prof text, a part on each core) sets
  // the timeline's bins. Each part's extremes and count on a cache line of their own: the
  // threads write them at every sample.
  struct alignas(64) Part {
    int64_t first = INT64_MAX, last = INT64_MIN;
    uint64_t timed = 0;
  };
  Part parts[2];
  inputs->ScanSampleTimesInParts(2, [&](size_t at, uint64_t, int64_t time, int64_t duration) {
    Part& part = parts[at];
    ++part.timed;
    part.first = std::min(part.first, time);
    part.last =
        std::max(part.last, duration > 0 && time <= INT64_MAX - duration ? time + duration : time);
  });
  int64_t first = INT64_MAX, last = INT64_MIN;
  uint64_t timed = 0;
  for (const Part& part : parts) {
    first = std::min(first, part.first);
    last = std::max(last, part.last);
    timed += part.timed;
  }
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
      plan.with_graph ? StackTotals::LabelKeying::kExact : StackTotals::LabelKeying::kNone);
  page.timeline = &totals;
  totals.ReserveEntries(timed);
  // The timeline's binning is as much work as the reading: each has a core.
  ReadStackTotals(program, inputs, plan.spec, &totals, Totalling::kBesideTheReading);
  page.value_index = ResolveValueIndex(totals.header(), plan.value);
  if (plan.base_files.empty()) {
    if (plan.with_graph) page.graph = &plan.graph;
    for (const std::string& warning : WriteHtmlReport(totals, page, out)) Warn(program, warning);
    return;
  }
  // As prof-text --diff-base: the base read with the same filters, its types matched (units
  // converted), and one StackTotals of differences; a timeline of differences would mean
  // nothing, so there is none.
  ProfileInputs base_inputs(plan.base_files, read);
  StackTotals base;
  ReadStackTotals(program, &base_inputs, plan.spec, &base);
  StackTotals diff;
  DiffStackTotals(totals, base, page.value_index, plan.normalize, &diff);
  page.timeline = nullptr;
  page.base_name = Names(plan.base_files);
  if (page.base_name.empty()) page.base_name = "standard input";
  WriteHtmlReport(diff, page, out);
}

}  // namespace proftools
