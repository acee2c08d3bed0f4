#include "common/cli/svg_report.h"

#include <vector>

#include "common/cli/report_options.h"
#include "common/report/diff_totals.h"
#include "common/report/graph/graph_svg.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// The options that only the flame graph reads, and those only the call graph reads: each is an
// error with the other drawing, rather than silently ignored.
constexpr const char* kFlameOnly[] = {
    "inverted",   "reverse",   "min-width", "title",      "subtitle",  "width",
    "height",     "font-type", "font-size", "font-width", "colors",    "bg-colors",
    "count-name", "name-type", "notes",     "diff-base",  "normalize", "base-time"};
constexpr const char* kGraphOnly[] = {"nodecount", "min-percent", "edge-percent", "no-trim"};

// The default subtitle: what is drawn, its total, where it came from, what was filtered.
std::string Subtitle(const StackTotals& totals, int value_index, const std::string& filters) {
  const ValueType& type = totals.header().types[value_index];
  std::string text = type.type + "/" + type.unit + ": " +
                     FormatValue(totals.total_values()[value_index], type.unit, false) + " in " +
                     std::to_string(totals.total_samples()) + " samples";
  const auto& sources = totals.header().sources;
  for (size_t i = 0; i < sources.size() && i < 3; ++i) {
    text +=
        (i == 0 ? "; from " : ", ") + (sources[i].uri.empty() ? sources[i].type : sources[i].uri);
  }
  if (sources.size() > 3) text += " and " + std::to_string(sources.size() - 3) + " more";
  if (!filters.empty()) text += "; filters: " + filters;
  return text;
}

// --min-width: pixels ("0.1"), or a percentage of the graph's width ("0.5%").
double MinWidth(const CommandLine& cli, int width) {
  std::string text = cli.Get<std::string>("min-width");
  const bool percent = !text.empty() && text.back() == '%';
  if (percent) text.pop_back();
  const double value = ParseDecimalOption("--min-width", text);
  return percent ? value * width / 100 : value;
}

// The flame graph's options of `plan`.
void ParseFlameOptions(const CommandLine& cli, SvgReportPlan* plan) {
  for (const char* option : kGraphOnly) {
    if (cli.Has(option)) throw UsageError(std::string("--") + option + " goes with --graph");
  }
  plan->tree.granularity = GranularityOption(cli);
  plan->tree.reverse = cli.Has("reverse");
  FlameSvgOptions& svg = plan->svg;
  svg.inverted = cli.Has("inverted");
  if (cli.Has("title")) svg.title = cli.Get<std::string>("title");
  if (cli.Has("width")) svg.width = static_cast<int>(cli.GetInteger("width", 100, 1000000));
  if (cli.Has("height")) svg.frame_height = static_cast<int>(cli.GetInteger("height", 2, 1000));
  if (cli.Has("font-type")) svg.font_type = cli.Get<std::string>("font-type");
  if (cli.Has("font-size")) svg.font_size = cli.Get<double>("font-size");
  if (cli.Has("font-width")) svg.font_width = cli.Get<double>("font-width");
  if (!(svg.font_size > 0 && svg.font_size <= 1000)) {
    throw UsageError("--font-size must be more than 0 and at most 1000");
  }
  if (!(svg.font_width > 0 && svg.font_width <= 10)) {
    throw UsageError("--font-width must be more than 0 and at most 10");
  }
  if (cli.Has("min-width")) svg.min_width = MinWidth(cli, svg.width);
  if (cli.Has("colors") && !ParsePalette(cli.Get<std::string>("colors"), &svg.palette)) {
    throw UsageError(std::string("--colors must be one of ") + PaletteNames());
  }
  if (cli.Has("bg-colors")) {
    svg.background = cli.Get<std::string>("bg-colors");
    std::string top, bottom;
    if (!BackgroundColors(svg.background, svg.palette, false, &top, &bottom)) {
      throw UsageError("--bg-colors must be yellow, blue, green, grey or #RRGGBB");
    }
  }
  if (cli.Has("count-name")) svg.count_name = cli.Get<std::string>("count-name");
  if (cli.Has("name-type")) svg.name_type = cli.Get<std::string>("name-type");
  if (cli.Has("notes")) svg.notes = cli.Get<std::string>("notes");
  plan->subtitle_given = cli.Has("subtitle");
  if (plan->subtitle_given) svg.subtitle = cli.Get<std::string>("subtitle");
  plan->base = ParseBaseSelection(cli.program().c_str(), cli, plan->spec);
  plan->normalize = cli.Has("normalize");
  svg.differential = plan->base.active();
  if (plan->normalize && !svg.differential) {
    throw UsageError("--normalize goes with --diff-base or --base-time");
  }
  // The base named in the legend and, by default, in the subtitle.
  for (const std::string& file : cli.GetAll("diff-base")) {
    svg.base_name +=
        (svg.base_name.empty() ? "" : ", ") + (file == "-" ? "(standard input)" : file);
  }
}

// --graph: the graph of prof-text --dot, trimmed by the same options and defaults (pprof's -dot:
// 80 nodes, nodes under 0.5% and edges under 0.1% of the total left out).
void WriteCallGraph(const char* program, const SvgReportPlan& plan, ProfileInputs* inputs,
                    ByteSink* out) {
  // The graph's tags come from the samples' labels, as for prof-text --dot.
  StackTotals totals(StackTotals::LabelKeying::kExact);
  ReadStackTotals(program, inputs, plan.spec, &totals);
  ReportOptions options = plan.graph_options;
  options.value_index = ResolveValueIndex(totals.header(), plan.value);
  for (const std::string& warning : WriteGraphSvg(totals, options, out)) Warn(program, warning);
}

}  // namespace

void AddSvgReportOptions(CommandLine* command_line) {
  CommandLine& cli = *command_line;
  AddValueAndGranularityOptions(
      &cli, "Graph", "the value type to draw (default: the profile's default type, else its last)");
  cli.AddOptions("Graph")("inverted", "an icicle graph: the root at the top")(
      "reverse", "stacks reversed: leaves at the root, callers growing from them")(
      "min-width", "frames narrower than PX pixels (or P% of the width) are not drawn (0.1)",
      OptionValue(), "PX");
  cli.AddOptions("Call graph (as pprof -svg)")(
      "graph", "draw the call graph (prof-text --dot) laid out by Graphviz, not a flame graph");
  AddCallGraphOptions(&cli, "Call graph (as pprof -svg)", "with --graph: ");
  cli.AddOptions("Appearance (as flamegraph.pl's)")(
      "title", "the title (default \"Flame Graph\", or \"Icicle Graph\")", OptionValue(), "TEXT")(
      "subtitle", "the line under the title (default: type, total, samples, sources, filters)",
      OptionValue(), "TEXT")("width", "the image's width in pixels (1200)", OptionValue(), "PX")(
      "height", "each frame's height in pixels (16)", OptionValue(), "PX")(
      "font-type", "the font family (Verdana)", OptionValue(), "FONT")(
      "font-size", "the font size in pixels (12)", OptionValue(), "PX")(
      "font-width", "average character width in font sizes, to fit labels (0.59)", OptionValue(),
      "RATIO")(
      "colors",
      "palette: kind (default: kernel orange, JIT green, inlined aqua, others hot), hot, mem, "
      "io, red, green, blue, aqua, yellow, purple, orange",
      OptionValue(), "PALETTE")("bg-colors", "background: yellow, blue, green, grey or #RRGGBB",
                                OptionValue(), "COLOR")(
      "count-name", "values as exact counts of NAME (e.g. samples) instead of 1.5ms or 12MiB",
      OptionValue(),
      "NAME")("name-type", "what the details line calls a frame (\"Function:\")", OptionValue(),
              "TEXT")("notes", "a comment written into the SVG", OptionValue(), "TEXT");
  AddDiffBaseOptions(&cli, "Differential (as FlameGraph's difffolded.pl)",
                     "colour each frame by its change from the profile FILE: red grown, blue "
                     "shrunk, white unchanged (widths stay this profile's)");
  AddBaseTimeOption(&cli);
  AddFilterOptions(&cli);
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
}

SvgReportPlan ParseSvgReportOptions(const CommandLine& cli) {
  SvgReportPlan plan;
  plan.graph = cli.Has("graph");
  if (plan.graph) {
    for (const char* option : kFlameOnly) {
      if (cli.Has(option)) {
        throw UsageError(std::string("--") + option + " goes with the flame graph, not --graph");
      }
    }
  }
  plan.value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  plan.spec = ParseFilterOptions(cli);
  if (plan.graph) {
    plan.graph_options.granularity = GranularityOption(cli);
    ReadCallGraphOptions(cli, &plan.graph_options);
    plan.graph_options.filter_description = plan.spec.description;
    plan.graph_options.active_filters = plan.spec.options;
  } else {
    ParseFlameOptions(cli, &plan);
  }
  return plan;
}

void WriteSvgReport(const char* program, const SvgReportPlan& plan, ProfileInputs* inputs,
                    const ReadOptions& read, ByteSink* out) {
  if (plan.graph) return WriteCallGraph(program, plan, inputs, out);
  StackTotals totals;
  if (plan.base.profile_itself) inputs->MakeReplayable();  // read again as the base
  ReadStackTotals(program, inputs, plan.spec, &totals);
  FlameTreeOptions tree_options = plan.tree;
  FlameSvgOptions svg = plan.svg;
  tree_options.value_index = ResolveValueIndex(totals.header(), plan.value);
  svg.unit = totals.header().types[tree_options.value_index].unit;
  if (!plan.subtitle_given) {
    svg.subtitle =
        Subtitle(totals, tree_options.value_index,
                 plan.base.active() ? plan.base.spec.description : plan.spec.description);
  }
  StackTotals base;
  int base_index = 0;
  if (svg.differential) {
    // With --base-time only, the filters in the subtitle already say what the base is.
    if (!plan.subtitle_given && !svg.base_name.empty()) svg.subtitle += "; base: " + svg.base_name;
    if (svg.base_name.empty()) svg.base_name = "this profile (--base-time)";
    ReadBaseTotals(program, plan.base, inputs, read, &base);
    const BaseType base_type =
        MatchBaseType(totals.header(), base.header(), tree_options.value_index);
    base_index = base_type.index;
    tree_options.base_scale = base_type.scale;  // into this profile's unit
    if (plan.normalize && base.total_values()[base_index] != 0) {
      tree_options.base_scale =
          static_cast<double>(totals.total_values()[tree_options.value_index]) /
          static_cast<double>(base.total_values()[base_index]);
    }
  }
  const FlameTree tree(totals, tree_options, svg.differential ? &base : nullptr, base_index);
  WriteFlameSvg(tree, svg, out);
}

}  // namespace proftools
