// gprof2prof: gprof's gmon.out with the executable it came from -> prof text.
#include <algorithm>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/elf/elf_function_symbols.h"
#include "common/gprof/gmon_file.h"
#include "common/gprof/gprof_codec.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace gprof2prof {
namespace {

constexpr const char* kProgram = "gprof2prof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] EXECUTABLE [GMON...]",
      "Convert gprof's profile data (gmon.out, written by a program built with gcc -pg when it "
      "exits) into canonical prof text, with the executable it came from, as gprof takes them: "
      "GMON is gmon.out when left out; several GMON (runs of the same executable) are summed, "
      "as gprof sums them. Each function's self time is the histogram's samples "
      "as gprof attributes them ('time nanoseconds'), its calls the call arcs' counts ('calls "
      "count'), so that prof-text --top gives gprof -b -p's self seconds and calls; stacks are "
      "built from the call arcs, each weighing its callee's time in proportion to its calls, as "
      "gprof -q propagates it. Functions are the executable's function symbols. With GMON -, "
      "reads standard input.",
      "Examples:\n"
      "  gcc -pg -o app app.c && ./app && gprof2prof app | prof-text\n"
      "  gprof2prof app gmon.out | prof-text --value calls   calls per function\n"
      "  gprof2prof app run1/gmon.out run2/gmon.out         two runs, summed\n"
      "  gprof2prof -o app.prof app gmon.out && prof-svg app.prof > app.svg\n");
  cli.AddAllowEmptyOption("a gmon.out without a histogram or call arcs");
  cli.AddMaxInputSizeOption();
  cli.AddOutputOption();
  cli.AddInputs(/*stdin_by_default=*/false);
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const std::vector<std::string> inputs = cli.Inputs();
  if (inputs.empty() || inputs[0] == "-") {
    throw UsageError("the EXECUTABLE gmon.out is of comes first (gprof2prof app gmon.out)");
  }
  const std::string executable = inputs[0];
  std::vector<std::string> gmon_paths(inputs.begin() + 1, inputs.end());
  if (gmon_paths.empty()) gmon_paths.push_back("gmon.out");
  if (std::count(gmon_paths.begin(), gmon_paths.end(), "-") > 1) {
    throw UsageError("standard input (-) can be one gmon.out only");
  }

  const ReadOptions read = cli.InputReadOptions();
  const ElfFunctionTable functions = ReadElfFunctions(executable);
  std::vector<Input> gmons;
  std::vector<Input*> gmon_inputs;
  gmons.reserve(gmon_paths.size());  // (pointers to them are kept)
  for (const std::string& path : gmon_paths) {
    gmons.push_back(OpenInput(path));
    const Input& gmon = gmons.back();
    if (!LooksLikeGmon(gmon.head)) {
      throw ProfError(gmon.name, gmon.head.empty() ? "empty input: not a gmon.out"
                                                   : "not glibc's gmon.out (\"gmon\", version 1)");
    }
    gmon_inputs.push_back(&gmons.back());
  }
  const ReadContext context = ReadContextFor(gmons.front(), read);
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  DiagnosticHandler throw_on_violation;  // a violation would be the converter's bug
  CheckingSink checked(&writer, &throw_on_violation, gmons.front().name);
  ReadGprof(gmon_inputs, context, functions, executable, &checked);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace gprof2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::gprof2prof::kProgram,
                               [&] { return proftools::gprof2prof::Main(argc, argv); });
}
