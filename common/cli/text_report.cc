#include "common/cli/text_report.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <re2/re2.h>

#include "common/base/left_at_exit.h"
#include "common/base/quantity.h"
#include "common/base/text_syntax.h"
#include "common/cli/filter_options.h"
#include "common/cli/report_options.h"
#include "common/report/diff_totals.h"
#include "common/report/stack_totals.h"
#include "common/report/text/tag_totals.h"

namespace proftools {
namespace {

constexpr std::pair<const char*, TextMode> kModes[] = {{"top", TextMode::kTop},
                                                       {"traces", TextMode::kTraces},
                                                       {"tree", TextMode::kTree},
                                                       {"folded", TextMode::kFolded},
                                                       {"canonical", TextMode::kCanonical},
                                                       {"sequences", TextMode::kSequences},
                                                       {"peek", TextMode::kPeek},
                                                       {"peek-seq", TextMode::kPeekSeq},
                                                       {"tags", TextMode::kTags},
                                                       {"timeline", TextMode::kTimeline},
                                                       {"list", TextMode::kList},
                                                       {"dot", TextMode::kDot}};

// An option that only means something in some modes is an error elsewhere, naming both.
void CheckOptionApplies(const CommandLine& cli, const char* option, TextMode chosen,
                        std::initializer_list<TextMode> modes, const char* mode_names) {
  if (!cli.Has(option) || std::find(modes.begin(), modes.end(), chosen) != modes.end()) return;
  for (auto [flag, mode] : kModes) {
    if (mode == chosen) {
      throw UsageError(std::string("--") + option + " goes with " + mode_names + ", not --" + flag);
    }
  }
}

void Report(const char* program, ProfileInputs* inputs, const FilterSpec& spec, TextMode mode,
            const std::string& value, const DiffBase& diff_base, const ReadOptions& read,
            ReportOptions options, ByteSink* out) {
  // --traces shows each label set apart, as pprof's -traces does.
  const bool by_labels = mode == TextMode::kTraces;
  // --dot draws tags from the samples' labels, as pprof -dot does.
  // Read once a process (prof-text's one report): left for the exit to free (left_at_exit.h).
  auto read_totals =
      std::make_unique<StackTotals>(mode == TextMode::kDot ? StackTotals::LabelKeying::kExact
                                    : by_labels            ? StackTotals::LabelKeying::kTraces
                                                           : StackTotals::LabelKeying::kNone);
  StackTotals& profile = *read_totals;
  if (diff_base.base.profile_itself) inputs->MakeReplayable();  // read again as the base
  ReadStackTotals(program, inputs, spec, &profile);
  options.value_index = ResolveValueIndex(profile.header(), value);
  StackTotals diff(by_labels);
  if (diff_base.base.active()) {
    StackTotals base(by_labels);
    ReadBaseTotals(program, diff_base.base, inputs, read, &base);
    DiffStackTotals(profile, base, options.value_index, diff_base.normalize, &diff);
  }
  const StackTotals& totals = diff_base.base.active() ? diff : profile;
  switch (mode) {
    case TextMode::kTop:
      WriteTopReport(totals, options, out);
      break;
    case TextMode::kTraces:
      WriteTracesReport(totals, options, out);
      break;
    case TextMode::kTree:
      WriteTreeReport(totals, options, out);
      break;
    case TextMode::kFolded:
      WriteFoldedReport(totals, options, out);
      break;
    case TextMode::kSequences:
      WriteSequencesReport(totals, options, out);
      break;
    case TextMode::kPeek:
    case TextMode::kPeekSeq:
      WritePeekReport(totals, options, out);
      break;
    case TextMode::kDot:
      WriteDotReport(totals, options, out);
      break;
    case TextMode::kList:
      for (const std::string& warning : WriteListReport(totals, options, out)) {
        Warn(program, warning);
      }
      break;
    case TextMode::kCanonical:
    case TextMode::kTags:
    case TextMode::kTimeline:
      break;
  }
  LeaveAtExit(std::move(read_totals));
}

// --timeline: a first pass finds each source's span (its buckets start at its first sample),
// the second sums the filtered samples into buckets.
void WriteTimeline(const char* program, const TextReportPlan& plan, ProfileInputs* inputs,
                   ByteSink* out) {
  TimelineOptions options = plan.timeline;
  const std::string& bucket = plan.timeline_bucket;
  const FilterSpec& spec = plan.spec;
  const std::string& value = plan.value;
  const ReportOptions& report = plan.options;
  options.raw_values = report.raw_values;
  options.value = value;
  options.filter_description = report.filter_description;
  std::map<uint64_t, SourceSpan> spans;
  uint64_t shares = 0;  // with a given bucket: an upper bound of the work the second pass does
  inputs->ScanSampleTimes([&](uint64_t source, int64_t time, int64_t duration) {
    spans[source].Add(time, duration);
    if (options.bucket_nanos > 0) shares += TimelineShares(duration, options.bucket_nanos);
  });
  if (shares > kMaxTimelineShares) {
    throw UsageError("--timeline=" + bucket + " would cut the samples into about " +
                     std::to_string(shares) + " shares of buckets (at most " +
                     std::to_string(kMaxTimelineShares) + "): give a larger bucket");
  }
  if (spans.empty()) {
    throw ProfError(inputs->name(),
                    "no sample has a time, so there is no timeline (perf2prof and rprof2prof "
                    "write sample times)");
  }
  Timeline timeline(options, std::move(spans));
  ReadFiltered(program, inputs, spec, &timeline, Reading::kAsReport);
  timeline.Write(out);
}

}  // namespace

void AddTextReportOptions(CommandLine* command_line) {
  CommandLine& cli = *command_line;
  cli.AllowRepeated("peek-seq");
  cli.AddOptions("Mode")("top", "flat and cumulative value per function (default)")(
      "traces", "each distinct stack with its total, largest first")(
      "tree", "a top-down call tree with cumulative and flat values")(
      "folded", "FlameGraph folded stacks: root;...;leaf VALUE")(
      "canonical", "the profile in canonical prof text (formats/prof-text.md section 7)")(
      "sequences",
      "subsequences of consecutive frames by cumulative value, with the value at each prefix")(
      "peek", "callers and callees of each frame matching RE, with [root] and [self]",
      OptionValue(), "RE")(
      "peek-seq",
      "callers and callees of the sequence SEQ (frames joined by ;); again for more blocks",
      OptionValue(), "SEQ")("tags", "for each label key, the value by label value (pprof -tags)")(
      "timeline",
      "the value per time bucket of each source, as --timeline or --timeline=BUCKET (e.g. "
      "100ms; default: about 40 buckets)",
      OptionValue().implicit_value(""), "BUCKET")(
      "csv", "with --timeline: comma-separated rows (source, offset, time, bucket, value)")(
      "list",
      "the source lines of each function matching RE, with flat and cum values (pprof -list)",
      OptionValue(), "RE")("dot", "the call graph in Graphviz DOT, as pprof -dot draws it");
  cli.AddOptions("Source (with --list)")(
      "source-path",
      "look for source files in DIR and its parents, then the next DIR (default: the working "
      "directory; pprof -source_path)",
      OptionValue(), "DIR[:DIR...]")(
      "trim-path",
      "remove PREFIX from the profile's file names before looking (pprof -trim_path; default: "
      "up to a --source-path directory's name)",
      OptionValue(), "PREFIX[:PREFIX...]");
  cli.AddOptions("Sequences (with --sequences)")(
      "self", "list sequences by the value of samples they end (leaf-anchored)")(
      "max-length", "sequences of at most N frames (default 4)", OptionValue(), "N");
  AddValueAndGranularityOptions(
      &cli, "Report",
      "the value type to report (default: the profile's default type, else its last)");
  cli.AddOptions("Report")("sort", "top: sort by flat (default) or cum", OptionValue(), "flat|cum")(
      "nodecount",
      "show at most N rows (top), nodes (tree and dot, default 80), traces or sequences",
      OptionValue(),
      "N")("min-percent",
           "leave out rows worth less than P% of the total (default: 0.5 for top, tree and dot, "
           "by cumulative value, as pprof's nodefraction; 5 for sequences; else 0)",
           OptionValue(),
           "P")("edge-percent",
                "dot: leave out edges worth less than P% of the total (default 0.1, as pprof's "
                "edgefraction)",
                OptionValue(), "P")(
      "no-trim",
      "top, tree, dot: keep every row (no default --min-percent, --edge-percent or --nodecount)")(
      "raw-values", "exact integers instead of scaled values such as 1.5ms or 12MiB");
  AddDiffBaseOptions(
      &cli, "Report",
      "values are this profile minus the profile(s) in FILE, percentages of FILE's total "
      "(pprof -diff_base); with --folded, two columns BASE NEW for difffolded-style graphs");
  AddBaseTimeOption(&cli);
  AddFilterOptions(&cli);
  cli.AddOptions("Folded view (with --folded, as stackcollapse-perf.pl; see perf2prof(1))")(
      "flamegraph",
      "frame names as stackcollapse-perf.pl writes them, thread name (comm) as the root")(
      "root", "a root frame from labels, e.g. '{comm}-{pid}/{tid}' ('?' for a missing label)",
      OptionValue(), "TEMPLATE")(
      "annotate",
      "suffix kernel frames _[k] (kernel), JIT frames _[j] (jit), inlined frames _[i] (inline), "
      "or all three (all)",
      OptionValue(),
      "WHAT")("unknown-addresses", "unknown frames as [DSO <ADDR>] instead of [DSO]");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
}

TextReportPlan ParseTextReportOptions(const CommandLine& cli) {
  TextMode mode = TextMode::kTop;
  int modes = 0;
  for (auto [flag, value] : kModes) {
    if (cli.Has(flag)) {
      mode = value;
      ++modes;
    }
  }
  if (modes > 1) {
    throw UsageError(
        "choose one of --top, --traces, --tree, --folded, --canonical, --sequences, --peek, "
        "--peek-seq, --tags, --timeline, --list, --dot");
  }
  for (const char* option : {"self", "max-length"}) {
    CheckOptionApplies(cli, option, mode, {TextMode::kSequences}, "--sequences");
  }
  // Only --top sorts its rows (pprof's -tree and -traces ignore --sort; here an option that
  // changes nothing is an error rather than silently ignored).
  CheckOptionApplies(cli, "sort", mode, {TextMode::kTop}, "--top");
  CheckOptionApplies(
      cli, "nodecount", mode,
      {TextMode::kTop, TextMode::kTree, TextMode::kTraces, TextMode::kSequences, TextMode::kDot},
      "--top, --tree, --traces, --sequences and --dot");
  CheckOptionApplies(cli, "no-trim", mode, {TextMode::kTop, TextMode::kTree, TextMode::kDot},
                     "--top, --tree and --dot");
  CheckOptionApplies(cli, "edge-percent", mode, {TextMode::kDot}, "--dot");
  if (mode == TextMode::kCanonical && cli.Has("min-percent")) {
    throw UsageError("--min-percent goes with the reports, not --canonical");
  }
  CheckOptionApplies(cli, "csv", mode, {TextMode::kTimeline}, "--timeline");
  for (const char* option : {"source-path", "trim-path"}) {
    CheckOptionApplies(cli, option, mode, {TextMode::kList}, "--list");
  }
  if (mode == TextMode::kList && cli.Has("granularity") &&
      cli.Get<std::string>("granularity") != "lines" &&
      cli.Get<std::string>("granularity") != "filelines") {
    throw UsageError(
        "--list shows source lines: as pprof -list (granularity lines, the default), or with "
        "flat at the innermost frame with a line, as R's summaryRprof (granularity filelines)");
  }
  if (mode == TextMode::kTimeline) {
    for (const char* option : {"granularity", "min-percent"}) {
      if (cli.Has(option))
        throw UsageError(std::string("--") + option +
                         " goes with the views of frames, not --timeline");
    }
  }

  ReportOptions options;
  options.granularity = GranularityOption(cli);
  if (mode == TextMode::kList) {
    options.list.regex = cli.Get<std::string>("list");
    options.list.source_path = cli.Has("source-path") ? cli.Get<std::string>("source-path") : "";
    options.list.trim_path = cli.Has("trim-path") ? cli.Get<std::string>("trim-path") : "";
    const RE2 regex(options.list.regex, RE2::Quiet);  // before any reading
    if (!regex.ok()) {
      throw UsageError("--list: bad regular expression " + Printable(options.list.regex) + ": " +
                       regex.error());
    }
  }
  if (cli.Has("sort")) {
    const std::string sort = cli.Get<std::string>("sort");
    if (sort != "flat" && sort != "cum") throw UsageError("--sort must be flat or cum");
    options.sort_by_cum = sort == "cum";
  }
  // pprof's defaults: top, tree and dot are trimmed at 0.5% (its nodefraction), the tree and
  // the graph also to 80 nodes (its nodecount for every report but text), the graph's edges at
  // 0.1% (its edgefraction); --no-trim keeps everything. pprof's -traces shows every trace, and
  // so do we unless asked.
  const bool trimmed = mode == TextMode::kTop || mode == TextMode::kTree || mode == TextMode::kDot;
  if (trimmed && !cli.Has("no-trim")) {
    options.min_percent = 0.5;
    if (mode == TextMode::kTree || mode == TextMode::kDot) options.node_count = 80;
    if (mode == TextMode::kDot) options.edge_percent = 0.1;
  }
  options.edge_percent = EdgePercentOption(cli, options.edge_percent);
  if (mode == TextMode::kSequences) options.min_percent = 5;
  if (cli.Has("nodecount")) options.node_count = cli.Get<size_t>("nodecount");
  options.min_percent = MinPercentOption(cli, options.min_percent);
  SequenceOptions& sequences = options.sequences;
  sequences.by_self = cli.Has("self");
  if (cli.Has("max-length")) sequences.max_length = cli.Get<size_t>("max-length");
  if (sequences.max_length == 0) throw UsageError("--max-length must be at least 1");
  if (cli.Has("peek")) {
    sequences.peek_regex = cli.Get<std::string>("peek");
    CheckPeekRegex(sequences.peek_regex);  // before any reading
  }
  if (cli.Has("peek-seq")) sequences.peek_sequences = cli.GetAll("peek-seq");
  for (const std::string& sequence : sequences.peek_sequences) {
    if (sequence.empty()) throw UsageError("--peek-seq needs a sequence: frames joined by ;");
  }
  options.raw_values = cli.Has("raw-values");
  FoldedViewOptions view;
  view.flamegraph = cli.Has("flamegraph");
  if (cli.Has("root")) {
    view.root = cli.Get<std::string>("root");
    CheckRootTemplate(view.root);
  }
  if (cli.Has("annotate") && !ParseAnnotate(cli.Get<std::string>("annotate"), &view)) {
    throw UsageError("--annotate must be kernel, jit, inline or all");
  }
  view.unknown_addresses = cli.Has("unknown-addresses");
  if (view.Active() && cli.Has("min-percent")) {
    throw UsageError(
        "--min-percent goes with --folded, not with --flamegraph, --root, --annotate "
        "or --unknown-addresses");
  }
  if (view.Active() && mode != TextMode::kFolded) {
    throw UsageError("--flamegraph, --root, --annotate and --unknown-addresses go with --folded");
  }
  const std::string value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  FilterSpec spec = ParseFilterOptions(cli);
  options.filter_description = spec.description;
  options.active_filters = spec.options;
  if (mode == TextMode::kTraces && spec.frames.collapse_recursion) {
    // The report collapses the cycles itself, to mark them: it must see the original stacks.
    spec.frames.collapse_recursion = false;
    options.mark_cycles = true;
  }
  if (mode == TextMode::kTags && cli.Has("granularity")) {
    throw UsageError("--granularity goes with the views of frames, not --tags");
  }
  if (mode == TextMode::kCanonical && !value.empty()) {
    throw UsageError("--canonical writes every value type; --value applies to reports");
  }

  DiffBase diff_base;
  diff_base.base = ParseBaseSelection("prof-text", cli, spec);
  // The header's filters say which window the base is.
  if (cli.Has("base-time")) options.filter_description = diff_base.base.spec.description;
  diff_base.normalize = cli.Has("normalize");
  if (diff_base.normalize && !diff_base.base.active()) {
    throw UsageError("--normalize goes with --diff-base or --base-time");
  }
  if (diff_base.base.active() && (mode == TextMode::kCanonical || mode == TextMode::kTags ||
                                  mode == TextMode::kTimeline || view.Active())) {
    throw UsageError(
        "--diff-base and --base-time go with --top, --traces, --tree, --folded (without "
        "--flamegraph, --root, "
        "--annotate, --unknown-addresses), --sequences, --peek and --peek-seq");
  }

  TextReportPlan plan;
  plan.mode = mode;
  plan.value = value;
  plan.options = options;
  plan.view = view;
  plan.diff_base = diff_base;
  plan.spec = spec;
  if (mode == TextMode::kTimeline) {
    plan.timeline_bucket = cli.Get<std::string>("timeline");
    if (!plan.timeline_bucket.empty()) {
      std::string error;
      if (!ParseDuration(plan.timeline_bucket, &plan.timeline.bucket_nanos, &error) ||
          plan.timeline.bucket_nanos <= 0) {
        throw UsageError("--timeline=" + Printable(plan.timeline_bucket) +
                         ": a bucket is a positive duration such as 100ms or 1s" +
                         (error.empty() ? "" : " (" + error + ")"));
      }
    }
    plan.timeline.csv = cli.Has("csv");
  }
  return plan;
}

void WriteTextReport(const char* program, const TextReportPlan& plan, ProfileInputs* inputs,
                     const ReadOptions& read, ByteSink* out) {
  const TextMode mode = plan.mode;
  const std::string& value = plan.value;
  const ReportOptions& options = plan.options;
  const FoldedViewOptions& view = plan.view;
  const FilterSpec& spec = plan.spec;
  const DiffBase& diff_base = plan.diff_base;
  if (mode == TextMode::kCanonical) {
    WriteFilteredText(program, inputs, spec, out);
  } else if (mode == TextMode::kTags) {
    TagTotals tags(value);
    ReadFiltered(program, inputs, spec, &tags, Reading::kAsReport);
    WriteTagsReport(tags, options.raw_values, options.min_percent, out);
  } else if (mode == TextMode::kTimeline) {
    WriteTimeline(program, plan, inputs, out);
  } else if (view.Active()) {
    FoldedView folded(view, value);
    ReadFiltered(program, inputs, spec, &folded, Reading::kAsReport);
    folded.Write(out);
  } else {
    Report(program, inputs, spec, mode, value, diff_base, read, options, out);
  }
}

}  // namespace proftools
