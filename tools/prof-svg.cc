// prof-svg: a flame graph of a profile as one SVG file, as `prof-text --folded | flamegraph.pl`
// draws it, with hover details, click to zoom, search and reset working offline; or, with
// --graph, pprof's call graph (prof-text --dot) laid out by Graphviz, with pan and zoom.
#include <string>
#include <utility>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/cli/report_options.h"
#include "common/io/output.h"
#include "common/report/diff_totals.h"
#include "common/report/flame_svg.h"
#include "common/report/flame_tree.h"
#include "common/report/graph_svg.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "prof-svg";

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

// The base's type matching the drawn one by name and unit (UsageError when it has none).
// --min-width: pixels ("0.1"), or a percentage of the graph's width ("0.5%").
double MinWidth(const CommandLine& cli, int width) {
  std::string text = cli.Get<std::string>("min-width");
  const bool percent = !text.empty() && text.back() == '%';
  if (percent) text.pop_back();
  const double value = ParseDecimalOption("--min-width", text);
  return percent ? value * width / 100 : value;
}

// The options that only the flame graph reads, and those only the call graph reads: each is an
// error with the other drawing, rather than silently ignored.
constexpr const char* kFlameOnly[] = {
    "inverted",   "reverse",   "min-width", "title",      "subtitle",  "width",
    "height",     "font-type", "font-size", "font-width", "colors",    "bg-colors",
    "count-name", "name-type", "notes",     "diff-base",  "normalize", "base-time"};
constexpr const char* kGraphOnly[] = {"nodecount", "min-percent", "edge-percent", "no-trim"};

// --graph: the graph of prof-text --dot, trimmed by the same options and defaults (pprof's
// -dot: 80 nodes, nodes under 0.5% and edges under 0.1% of the total left out).
int DrawGraph(CommandLine& cli) {
  for (const char* option : kFlameOnly) {
    if (cli.Has(option))
      throw UsageError(std::string("--") + option + " goes with the flame graph, not --graph");
  }
  ReportOptions options;
  options.granularity = GranularityOption(cli);
  ReadCallGraphOptions(cli, &options);
  const std::string value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  const FilterSpec spec = ParseFilterOptions(cli);
  options.filter_description = spec.description;
  options.active_filters = spec.options;

  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  Output output(cli.OutputPath());
  // The graph's tags come from the samples' labels, as for prof-text --dot.
  StackTotals totals(StackTotals::LabelKeying::kExact);
  ReadStackTotals(kProgram, &inputs, spec, &totals);
  options.value_index = ResolveValueIndex(totals.header(), value);
  const std::vector<std::string> warnings = WriteGraphSvg(totals, options, &output);
  for (const std::string& warning : warnings) Warn(kProgram, warning);
  output.Commit();
  return kExitOk;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Draw a profile (prof text, or anything proftools reads) as a flame graph in one SVG "
      "file, laid out as flamegraph.pl lays out `prof-text --folded`: the root at the bottom, "
      "callees above their callers, frames ordered by name, widths proportional to value. "
      "Opened in a browser, hovering shows a frame's value and source, a click zooms, Search "
      "(or Ctrl-F) highlights frames matching a regular expression; it needs no network. "
      "Several FILEs are one profile; the options of prof-filter(1) select part of it first. "
      "With --graph, draws pprof's call graph instead (the graph of prof-text --dot, laid out by "
      "Graphviz), which a drag moves and the wheel zooms. "
      "With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof-svg cpu.prof -o cpu.svg\n"
      "  prof-svg --graph --nodecount 40 cpu.prof -o graph.svg\n"
      "  prof-svg --inverted --colors mem --value alloc_space heap.pb.gz -o heap.svg\n"
      "  prof-svg --time 10s..20s --focus '^parse' --title 'Parsing' perf.prof -o parse.svg\n");
  cli.AddOptions("Graph")("value",
                          "the value type to draw (default: the profile's default type, else its "
                          "last)",
                          OptionValue(), "TYPE")(
      "granularity",
      "frames are functions (default), filefunctions, files, lines, addresses or filelines",
      OptionValue(), "G")("inverted", "an icicle graph: the root at the top")(
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
  cli.AddOptions("Differential (as FlameGraph's difffolded.pl)")(
      "diff-base",
      "colour each frame by its change from the profile FILE: red grown, blue shrunk, white "
      "unchanged (widths stay this profile's)",
      OptionValue(),
      "FILE")("normalize", "with --diff-base: scale the base to this profile's total first");
  cli.AllowRepeated("diff-base");  // several bases are one profile, as several inputs are
  AddBaseTimeOption(&cli);
  AddFilterOptions(&cli);
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);
  if (cli.Has("graph")) return DrawGraph(cli);
  for (const char* option : kGraphOnly) {
    if (cli.Has(option)) throw UsageError(std::string("--") + option + " goes with --graph");
  }

  FlameTreeOptions tree_options;
  tree_options.granularity = GranularityOption(cli);
  tree_options.reverse = cli.Has("reverse");
  FlameSvgOptions svg;
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
  const std::string value = cli.Has("value") ? cli.Get<std::string>("value") : "";
  const FilterSpec spec = ParseFilterOptions(cli);
  const BaseSelection base_selection = ParseBaseSelection(kProgram, cli, spec);

  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  Output output(cli.OutputPath());
  StackTotals totals;
  if (base_selection.profile_itself) inputs.MakeReplayable();  // read again as the base
  ReadStackTotals(kProgram, &inputs, spec, &totals);
  tree_options.value_index = ResolveValueIndex(totals.header(), value);
  svg.unit = totals.header().types[tree_options.value_index].unit;
  svg.subtitle =
      cli.Has("subtitle")
          ? cli.Get<std::string>("subtitle")
          : Subtitle(totals, tree_options.value_index,
                     base_selection.active() ? base_selection.spec.description : spec.description);
  StackTotals base;
  int base_index = 0;
  svg.differential = base_selection.active();
  if (cli.Has("normalize") && !svg.differential) {
    throw UsageError("--normalize goes with --diff-base or --base-time");
  }
  if (svg.differential) {
    // The base named in the legend and, by default, in the subtitle.
    for (const std::string& file : cli.GetAll("diff-base")) {
      svg.base_name +=
          (svg.base_name.empty() ? "" : ", ") + (file == "-" ? "(standard input)" : file);
    }
    // With --base-time only, the filters in the subtitle already say what the base is.
    if (!cli.Has("subtitle") && !svg.base_name.empty()) svg.subtitle += "; base: " + svg.base_name;
    if (svg.base_name.empty()) svg.base_name = "this profile (--base-time)";
    ReadBaseTotals(kProgram, base_selection, &inputs, cli.InputReadOptions(), &base);
    const BaseType base_type =
        MatchBaseType(totals.header(), base.header(), tree_options.value_index);
    base_index = base_type.index;
    tree_options.base_scale = base_type.scale;  // into this profile's unit
    if (cli.Has("normalize") && base.total_values()[base_index] != 0) {
      tree_options.base_scale =
          static_cast<double>(totals.total_values()[tree_options.value_index]) /
          static_cast<double>(base.total_values()[base_index]);
    }
  }
  const FlameTree tree(totals, tree_options, svg.differential ? &base : nullptr, base_index);
  WriteFlameSvg(tree, svg, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
