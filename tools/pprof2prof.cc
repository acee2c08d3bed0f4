// pprof2prof: pprof's profile.proto (gzipped or not) -> prof text.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "pprof2prof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE]",
      "Convert a pprof profile (profile.proto, gzipped or not: a .pb.gz or .pb) into canonical "
      "prof text. Every field of profile.proto has its place in the text; what prof2pprof "
      "carried in comments and labels (meta and source records, sample timestamps, unused "
      "stacks) is turned back into records (formats/prof-text.md section 8). Malformed or "
      "hostile input is refused with a message naming the field and byte offset. With no "
      "FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  pprof2prof cpu.pb.gz > cpu.prof\n"
      "  pprof2prof -o heap.prof heap.pb.gz        write a file atomically\n"
      "  pprof2prof cpu.pb.gz | prof-text --folded | flamegraph.pl > cpu.svg\n");
  cli.AddMaxInputSizeOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  const std::vector<std::string> inputs = cli.Inputs();
  if (inputs.size() > 1) throw UsageError("one input at a time; combine profiles with prof-merge");
  WarningPrinter handler(kProgram);
  ReadOptions options;
  options.handler = &handler;
  options.max_pprof_size = cli.MaxInputSize();

  Input input = OpenInput(inputs[0]);
  // Binary data the sniffer found implausible is decoded anyway: the user says it is pprof, and
  // the decoder names what is wrong with it (and applies the size cap to a gzip bomb).
  if (input.format == InputFormat::kOther && !input.text) input.format = InputFormat::kPprof;
  switch (input.format) {
    case InputFormat::kPprof:
      break;
    case InputFormat::kProfText:
      throw ProfError(input.name, "is already prof text (read it with prof-text)");
    case InputFormat::kLegacyPprof:
      throw ProfError(input.name, input.hint);
    case InputFormat::kEmpty:
      throw ProfError(input.name, "empty input: not a pprof profile");
    case InputFormat::kOther:
      throw ProfError(input.name, "not a pprof profile: " + input.hint);
  }
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  ReadProfile(input, &writer, options);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
