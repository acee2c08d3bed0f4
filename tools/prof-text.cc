// prof-text: human-readable reports of a profile, and its canonical text (common/cli/text_report
// holds the options, their checks and the reports).
#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/cli/text_report.h"
#include "common/io/output.h"

namespace proftools {
namespace prof_text {
namespace {

constexpr const char* kProgram = "prof-text";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Show a profile (prof text, or anything proftools reads) as a report: the functions with "
      "the most flat and cumulative value (--top, the default), each distinct stack with its "
      "total (--traces), a call tree (--tree), FlameGraph folded stacks (--folded), "
      "sequences of frames with the value at each prefix (--sequences), the callers and callees "
      "of frames or of a sequence (--peek, --peek-seq), or the canonical prof text "
      "(--canonical), or the value by label (--tags). Several FILEs are one profile, merged as "
      "prof-merge merges them; the "
      "options of prof-filter(1) select part of it first. With no FILE, or when FILE is -, "
      "reads standard input.",
      "Examples:\n"
      "  prof-text cpu.prof                       top functions by flat value\n"
      "  prof-text --top --sort cum --nodecount 20 cpu.prof\n"
      "  prof-text --folded cpu.prof | flamegraph.pl > cpu.svg\n"
      "  prof-text --sequences --min-percent 1 cpu.prof\n"
      "  prof-text --peek '^malloc$' cpu.prof      then --peek-seq 'caller;malloc'\n"
      "  prof-text --time 10s..20s --label-focus tid=1234 cpu.prof\n"
      "  prof-text --canonical -o golden.prof in.prof\n");
  AddTextReportOptions(&cli);
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const TextReportPlan plan = ParseTextReportOptions(cli);

  const ReadOptions read = cli.InputReadOptions();
  ProfileInputs inputs(cli.Inputs(), read);
  Output output(cli.OutputPath());
  WriteTextReport(kProgram, plan, &inputs, read, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof_text
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_text::kProgram,
                               [&] { return proftools::prof_text::Main(argc, argv); });
}
