// pprof2prof: pprof's profile.proto (gzipped or not) -> prof text.
#include <string>
#include <vector>

#include "common/base/text_syntax.h"
#include "common/cli/cli.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/pprof/pprof_codec.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace pprof2prof {
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
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  const std::vector<std::string> inputs = cli.Inputs();
  if (inputs.size() > 1) throw UsageError("one input at a time; combine profiles with prof-merge");
  ReadOptions options = cli.InputReadOptions();
  options.handler = cli.warnings();  // throws at the first violation, after printing warnings
  Input input = OpenInput(inputs[0]);
  RequireFormat(input, kPprofReader, options.format);
  if (input.head.empty()) throw ProfError(input.name, "empty input: not a pprof profile");
  if (options.format.empty() && input.text && SniffReader(input) == nullptr) {
    throw ProfError(Diagnostic{Rule::kInput, input.name, 1,
                               "not a pprof profile: it is text, and its first line is " +
                                   Printable(FirstLine(input.head).substr(0, 60))});
  }
  // Binary data no sniffer claims is decoded as pprof anyway: the user says it is pprof, and the
  // decoder names what is wrong with it (and applies the size cap to a gzip bomb).
  options.format = kPprofReader.name;
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  ReadProfile(input, &writer, options);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace pprof2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::pprof2prof::kProgram,
                               [&] { return proftools::pprof2prof::Main(argc, argv); });
}
