// prof-merge: any number of profiles (prof text or pprof, any mix) into one prof text profile.
#include <memory>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/input.h"
#include "common/io/output_target.h"
#include "common/merge/merge_pprof.h"
#include "common/merge/merger.h"
#include "common/merge/read_ahead.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace prof_merge {
namespace {

constexpr const char* kProgram = "prof-merge";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Merge profiles (prof text or pprof, gzipped or not, any mix) into one prof text profile "
      "(with --pprof, a gzipped pprof profile). "
      "Every input's sources are kept, so each sample still says where it came from; identical "
      "functions, locations, mappings and stacks are stored once. Inputs with different value "
      "types merge into the union of their types (a sample's value for a type its input did "
      "not have is 0); the same type in different known units (nanoseconds and milliseconds, "
      "bytes and megabytes) is converted to the finer unit. The output does not depend on how "
      "the inputs were grouped: merging the merges of groups gives the same bytes as merging "
      "all inputs at once. With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  prof-merge a.prof b.pb.gz -o all.prof          keep every sample\n"
      "  prof-merge --pprof host*.pb.gz -o fleet.pb.gz  straight to pprof (summed)\n"
      "  printf '%s\\n' host*.pb.gz |                    a fleet as a tree, 2 jobs at once\n"
      "      parallel -j2 -N 8 --wd . 'prof-merge --pprof -o parts/{0#}.pb.gz {}'\n"
      "  prof-merge --pprof -o fleet.pb.gz parts/*.pb.gz  the same bytes as one merge\n");
  cli.AddOptions()("aggregate",
                   "sum samples with the same stack, labels and source into one, dropping "
                   "timestamps and durations")(
      "drop-sources",
      "give all samples one source 'prof-merge' (with --aggregate: sum across inputs)")(
      "skip-bad", "report an input that cannot be read or merged, skip it and go on")(
      "pprof",
      "write pprof's profile.proto, gzipped, instead of prof text: the bytes of "
      "'prof-merge --aggregate ... | prof2pprof', without the text in between (implies "
      "--aggregate)")("force", "with --pprof, write binary output even to a terminal");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  if (cli.Has("force") && !cli.Has("pprof")) throw UsageError("--force goes with --pprof");
  MergeOptions options;
  // --pprof aggregates: prof2pprof would sum the same samples (merge_pprof.h).
  options.aggregate = cli.Has("aggregate") || cli.Has("pprof");
  options.drop_sources = cli.Has("drop-sources");
  const bool skip_bad = cli.Has("skip-bad");
  options.recoverable = skip_bad;
  options.read = cli.InputReadOptions();

  const bool pprof = cli.Has("pprof");
  OutputFormat format;
  format.binary = pprof;
  format.force = cli.Has("force");
  format.gzip = pprof;
  OutputTarget output(cli.OutputPath(), format);
  Merger merger(options);
  // Each input is read on a thread of its own while those before it are merged: a fleet of
  // small profiles keeps both cores busy decoding. Messages still come in the inputs' order.
  ReadAhead inputs(&merger, cli.Inputs());
  while (std::unique_ptr<PrefetchedInput> input = inputs.Next()) {
    try {
      merger.Add(std::move(input));
    } catch (const ProfError& e) {
      if (!skip_bad) throw;
      Warn(kProgram, "skipping " + e.diagnostic().Format());
    }
  }
  if (merger.input_count() == 0) {
    throw ProfError("", "no input could be merged (every one was skipped)");
  }

  if (pprof) {
    FinishAsPprof(&merger, output.sink());
  } else {
    DiagnosticHandler throw_on_violation;  // a violation here is a bug of this program
    CanonicalWriter writer(output.sink());
    CheckingSink checked(&writer, &throw_on_violation, "(merged profile)");
    merger.Finish(&checked);
  }
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof_merge
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_merge::kProgram,
                               [&] { return proftools::prof_merge::Main(argc, argv); });
}
