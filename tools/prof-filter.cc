// prof-filter: a profile with a selection applied (time windows, labels, frames, recursion,
// derived values), as canonical prof text that every other program reads.
#include <string>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output.h"

namespace proftools {
namespace prof_filter {
namespace {

constexpr const char* kProgram = "prof-filter";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Write a profile (prof text, or anything proftools reads) with a selection applied, as "
      "canonical prof text: a time window (long samples count in proportion), samples by label, "
      "frames, collapsed recursion, derived value types. Several FILEs are one profile, merged "
      "as prof-merge merges them. With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof-filter --time 10s..20s cpu.prof | prof2pprof -o slice.pb.gz\n"
      "  prof-filter --last 30s --label-focus comm=myserver perf.prof | prof-text --top\n"
      "  prof-filter --coalesce --split-on cpu_delta samples.prof\n"
      "  prof-filter --derive live=alloc_space-free_space --types live heap.prof\n");
  AddFilterOptions(&cli);
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const FilterSpec spec = ParseFilterOptions(cli);

  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  Output output(cli.OutputPath());
  WriteFilteredText(kProgram, &inputs, spec, &output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof_filter
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_filter::kProgram,
                               [&] { return proftools::prof_filter::Main(argc, argv); });
}
