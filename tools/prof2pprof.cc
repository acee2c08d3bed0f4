// prof2pprof: a profile (prof text, or anything proftools reads) -> pprof's profile.proto,
// gzipped by default.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/io/output_target.h"
#include "common/pprof/pprof_writer.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "prof2pprof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert a profile of any format proftools reads (prof text, pprof, perf script output, "
      "Rprof files, folded stacks; several FILEs are merged into one) into pprof's "
      "profile.proto, gzipped "
      "(a .pb.gz that pprof reads). Samples that share stack, source and labels are summed, "
      "as pprof does on loading; sample timestamps and durations are not labels and are "
      "dropped then (--keep-samples keeps them). What pprof has no field for (meta and source "
      "records, unused stacks) travels in comments and labels, so pprof2prof gives the same "
      "profile back (formats/prof-text.md section 8). The same input always gives the same "
      "bytes. With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof2pprof -o cpu.pb.gz cpu.prof          write a file atomically\n"
      "  prof2pprof -o r.pb.gz Rprof.out             any format proftools reads\n"
      "  prof2pprof -o fleet.pb.gz host*.prof        several inputs merged\n"
      "  prof2pprof --keep-samples cpu.prof > raw.pb.gz\n");
  cli.AddOptions()("keep-samples",
                   "one pprof sample per text sample, with its timestamp and duration as "
                   "numeric labels proftools.time and proftools.duration (nanoseconds)")(
      "no-gzip", "write raw protobuf (.pb) instead of gzipped")(
      "gzip-level",
      "zlib compression level, 1 (the default, as Go writes profiles) to 9; above 1 every "
      "block is compressed (at 1, blocks that hardly compress are stored): smaller, slower",
      OptionValue(), "N")("force", "write binary output even to a terminal");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  PprofWriteOptions options;
  options.keep_samples = cli.Has("keep-samples");
  OutputFormat format;
  format.binary = true;
  format.force = cli.Has("force");
  format.gzip = !cli.Has("no-gzip");
  if (cli.Has("gzip-level")) {
    if (cli.Has("no-gzip")) throw UsageError("--gzip-level and --no-gzip exclude each other");
    format.gzip_level = static_cast<int>(cli.GetInteger("gzip-level", 1, 9));
  }

  // Several inputs are one profile, merged as prof-merge merges them.
  ProfileInputs inputs(cli.Inputs(), cli.InputReadOptions());
  OutputTarget output(cli.OutputPath(), format);
  PprofWriter writer(output.sink(), options);
  inputs.Read(&writer);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
