// prof2pprof: a profile (prof text, or anything proftools reads) -> pprof's profile.proto,
// gzipped by default.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/gzip_sink.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/pprof/pprof_writer.h"

namespace proftools {
namespace {

constexpr const char* kProgram = "prof2pprof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE]",
      "Convert a profile (prof text, or a pprof profile) into pprof's profile.proto, gzipped "
      "(a .pb.gz that pprof reads). Samples that share stack, source and labels are summed, "
      "as pprof does on loading; sample timestamps and durations are not labels and are "
      "dropped then (--keep-samples keeps them). What pprof has no field for (meta and source "
      "records, unused stacks) travels in comments and labels, so pprof2prof gives the same "
      "profile back (formats/prof-text.md section 8). The same input always gives the same "
      "bytes. With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof2pprof -o cpu.pb.gz cpu.prof          write a file atomically\n"
      "  rprof2prof Rprof.out | prof2pprof -o r.pb.gz\n"
      "  prof2pprof --keep-samples cpu.prof > raw.pb.gz\n");
  cli.AddOptions()("keep-samples",
                   "one pprof sample per text sample, with its timestamp and duration as "
                   "numeric labels proftools.time and proftools.duration (nanoseconds)")(
      "no-gzip", "write raw protobuf (.pb) instead of gzipped")(
      "gzip-level",
      "zlib compression level, 1 (the default, as Go writes profiles) to 9; above 1 every "
      "block is compressed (at 1, blocks that hardly compress are stored): smaller, slower",
      cxxopts::value<std::string>(), "N")("force", "write binary output even to a terminal");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  cli.Parse(argc, argv);

  const std::vector<std::string> inputs = cli.Inputs();
  if (inputs.size() > 1) throw UsageError("one input at a time; combine profiles with prof-merge");
  const ReadOptions read_options = cli.InputReadOptions();
  PprofWriteOptions options;
  options.keep_samples = cli.Has("keep-samples");
  int level = 1;
  if (cli.Has("gzip-level")) {
    if (cli.Has("no-gzip")) throw UsageError("--gzip-level and --no-gzip exclude each other");
    level = static_cast<int>(cli.GetInteger("gzip-level", 1, 9));
  }

  Output output(cli.OutputPath());
  if (output.IsTerminal() && !cli.Has("force")) {
    throw UsageError("will not write binary data to a terminal; use -o FILE, a pipe, or --force");
  }
  Input input = OpenInput(inputs[0]);
  if (cli.Has("no-gzip")) {
    PprofWriter writer(&output, options);
    ReadProfile(input, &writer, read_options);
  } else {
    GzipSink gzip(&output, level);
    PprofWriter writer(&gzip, options);
    ReadProfile(input, &writer, read_options);
    gzip.Finish();
  }
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::kProgram, [&] { return proftools::Main(argc, argv); });
}
