// prof-html: a profile as one self-contained, interactive HTML report: overall and self lists,
// a flame graph, the sequence view, pprof's call graph (laid out by Graphviz when the page is
// written), the header; opened from disk, no network (common/cli/html_page holds the options,
// their checks and the page).
#include "common/cli/cli.h"
#include "common/cli/html_page.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output.h"

namespace proftools {
namespace prof_html {
namespace {

constexpr const char* kProgram = "prof-html";

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
  AddHtmlPageOptions(&cli);
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const HtmlPagePlan plan = ParseHtmlPageOptions(cli);

  const ReadOptions read = cli.InputReadOptions();
  ProfileInputs inputs(cli.Inputs(), read);
  Output output(cli.OutputPath());
  WriteHtmlPage(kProgram, plan, &inputs, read, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof_html
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_html::kProgram,
                               [&] { return proftools::prof_html::Main(argc, argv); });
}
