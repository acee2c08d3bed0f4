// prof-svg: a flame graph of a profile as one SVG file, as `prof-text --folded | flamegraph.pl`
// draws it, with hover details, click to zoom, search and reset working offline; or, with
// --graph, pprof's call graph (prof-text --dot) laid out by Graphviz, with pan and zoom
// (common/cli/svg_report holds the options, their checks and the drawing).
#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/cli/svg_report.h"
#include "common/io/output.h"

namespace proftools {
namespace prof_svg {
namespace {

constexpr const char* kProgram = "prof-svg";

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
  AddSvgReportOptions(&cli);
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const SvgReportPlan plan = ParseSvgReportOptions(cli);

  const ReadOptions read = cli.InputReadOptions();
  ProfileInputs inputs(cli.Inputs(), read);
  Output output(cli.OutputPath());
  WriteSvgReport(kProgram, plan, &inputs, read, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof_svg
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_svg::kProgram,
                               [&] { return proftools::prof_svg::Main(argc, argv); });
}
