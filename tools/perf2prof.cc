// perf2prof: the text `perf script` prints -> prof text.
#include <memory>
#include <string>
#include <vector>

#include "common/checker.h"
#include "common/cli.h"
#include "common/input.h"
#include "common/output.h"
#include "common/perf_converter.h"
#include "common/spool.h"
#include "common/text_writer.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "perf2prof";

// Prints warnings as "perf2prof: warning: FILE:LINE: message".
class WarningPrinter : public DiagnosticHandler {
 public:
  void Warning(const Diagnostic& diagnostic) override { Warn(kProgram, diagnostic.Format()); }
};

// Opens `path`, refuses other profile formats, and scans it.
PerfInput Scan(const std::string& path, TwoPassInput* passes) {
  Input input = OpenInput(path);
  switch (input.format) {
    case InputFormat::kProfText:
      throw ProfError(input.name, "is already a prof text profile (read it with prof-text)");
    case InputFormat::kPprof:
      throw ProfError(input.name, "is a pprof protobuf profile, not perf script output");
    case InputFormat::kEmpty:
    case InputFormat::kOther:
      break;
  }
  PerfInput scanned;
  scanned.name = input.name;
  scanned.uri = path == "-" ? "" : path;
  scanned.plan = ScanPerfScript(input.stream.get(), input.name, passes->spool_fd());
  if (scanned.plan.samples == 0 && scanned.plan.unknown_lines > 0) {
    throw ProfError(input.name,
                    "not perf script output: no line is a sample header such as "
                    "'comm 1234 [000] 12.345678: 250000 cpu-clock:'");
  }
  return scanned;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert the text 'perf script' prints into a prof text profile: one sample per perf "
      "sample, leaf first, with its timestamp and the labels comm, pid, tid and cpu. Each "
      "event gets two value types: EVENT_samples (count) and EVENT (the sum of periods, or 1 "
      "per sample when perf printed no period); a sample carries 0 in the other events' "
      "types. Lines that are not perf script are skipped with one warning per input. With no "
      "FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  perf script | perf2prof | prof-text                    top functions\n"
      "  perf script | perf2prof | prof2pprof -o cpu.pb.gz      for pprof\n"
      "  perf2prof out.txt | prof-text --folded --flamegraph | flamegraph.pl > cpu.svg\n"
      "  perf2prof out.txt | prof-text --value cycles_samples   count samples, not periods\n");
  cli.AddOptions()("strict", "a line that is not perf script is an error instead of a warning");
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  PerfOptions options;
  options.strict = cli.Has("strict");

  // First pass: the events of every input, so that the preamble declares every value type
  // before the first sample.
  const std::vector<std::string> paths = cli.Inputs();
  std::vector<PerfInput> inputs;
  std::vector<std::unique_ptr<TwoPassInput>> passes;
  for (const std::string& path : paths) {
    passes.push_back(std::make_unique<TwoPassInput>(path));
    inputs.push_back(Scan(path, passes.back().get()));
  }

  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  std::string names;
  for (const PerfInput& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
  DiagnosticHandler throw_on_violation;  // a violation here is a bug of this program
  CheckingSink checked(&writer, &throw_on_violation, names);
  WarningPrinter warnings;
  // Deliberately never destroyed: the process ends right after, and freeing its hundreds of
  // thousands of interned stacks and frames one by one took a tenth of a large conversion.
  PerfConverter& converter = *new PerfConverter(&checked, inputs, &warnings, options);
  for (size_t i = 0; i < inputs.size(); ++i) {
    converter.Convert(i, passes[i]->Again(inputs[i].name));
  }
  converter.Finish();
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
