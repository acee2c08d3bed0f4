#include "common/cli/writer_program.h"

#include <string>

#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output_target.h"

namespace proftools {
namespace {

int WriteProgramMain(const WriterSpec& spec, const WriterProgramText& text, int argc, char** argv) {
  CommandLine cli(spec.program, "[OPTION...] [FILE...]", text.description, text.examples);
  for (const WriterOption& option : spec.options) {
    if (option.value_name != nullptr) {
      cli.AddOptions()(option.name, option.help, OptionValue(), option.value_name);
    } else {
      cli.AddOptions()(option.name, option.help);
    }
  }
  if (spec.gzip) {
    cli.AddOptions()("no-gzip", std::string("write ") + spec.summary + " uncompressed")(
        "gzip-level",
        "zlib compression level, 1 (the default, as Go writes profiles) to 9; above 1 every "
        "block is compressed (at 1, blocks that hardly compress are stored): smaller, slower",
        OptionValue(), "N");
  }
  if (spec.binary) cli.AddOptions()("force", "write binary output even to a terminal");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  WriteContext context;
  for (const WriterOption& option : spec.options) {
    if (cli.Has(option.name)) {
      context.options[option.name] =
          option.value_name != nullptr ? cli.Get<std::string>(option.name) : std::string();
    }
  }
  context.warnings = cli.warnings();
  context.output_path = cli.OutputPath();
  OutputFormat format;
  format.binary = spec.binary;
  format.force = spec.binary && cli.Has("force");
  format.gzip = spec.gzip && !cli.Has("no-gzip");
  if (spec.gzip && cli.Has("gzip-level")) {
    if (cli.Has("no-gzip")) throw UsageError("--gzip-level and --no-gzip exclude each other");
    format.gzip_level = static_cast<int>(cli.GetInteger("gzip-level", 1, 9));
  }

  // Several inputs are one profile, merged as prof-merge merges them.
  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  OutputTarget output(cli.OutputPath(), format);
  spec.write(inputs, output.sink(), context);
  output.Commit();
  return kExitOk;
}

}  // namespace

int RunWriterProgram(const WriterSpec& spec, const WriterProgramText& text, int argc, char** argv) {
  return RunProgram(spec.program, [&] { return WriteProgramMain(spec, text, argc, argv); });
}

}  // namespace proftools
