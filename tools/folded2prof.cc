// folded2prof: FlameGraph's folded stacks (`frame;frame;... COUNT` lines) -> prof text.
#include <optional>
#include <string>
#include <vector>

#include "common/base/text_syntax.h"
#include "common/cli/cli.h"
#include "common/folded/folded_reader.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace folded2prof {
namespace {

constexpr const char* kProgram = "folded2prof";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...]",
      "Convert folded stacks, the input of FlameGraph's flamegraph.pl (lines 'frame;frame;...;leaf "
      "COUNT', root first, as stackcollapse-*.pl, inferno, async-profiler -o collapsed, py-spy "
      "--format raw, bpftrace and bcc's profile -f and prof-text --folded write them), into a "
      "prof text profile: one sample per distinct stack with the sum of its counts. Several "
      "FILEs are one profile with a source each. Lines with two counts (difffolded.pl) give the "
      "types 'before' and 'after'. Frame annotations (_[k] kernel, _[j] and _[1] JIT, _[0] "
      "interpreted, _[w] waker, _[i] inlined) become the frame's kind; py-spy's 'name "
      "(file:line)' frames are split; prof-text --folded's escapes are undone. Lines that do not "
      "parse are skipped and counted in one warning, as flamegraph.pl ignores them (--strict: an "
      "error naming the line). With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  stackcollapse-perf.pl out.perf | folded2prof > cpu.prof\n"
      "  folded2prof --thread-root --type cpu/nanoseconds collapsed.txt | prof-text\n"
      "  py-spy record --format raw -o py.txt -- python app.py; folded2prof py.txt | prof-svg > "
      "py.svg\n"
      "  prof-text --folded a.prof | folded2prof | prof-text     the same stacks back\n");
  cli.AddOptions()("type", "the value type of the counts (default samples/count)", OptionValue(),
                   "NAME/UNIT")(
      "thread-root",
      "the root frame names a thread or process: labels comm, pid, tid, thread instead of a "
      "frame (stackcollapse-perf's COMM, COMM-PID, COMM-PID/TID; async-profiler's [NAME tid=N]; "
      "py-spy's process N:\"CMD\" and thread (ID))")(
      "keep-annotations", "keep _[k], _[j], _[i] and the like as part of the frame's name")(
      "frames", "py-spy's 'name (file:line)' frames: split (default) or plain (kept whole)",
      OptionValue(), "split|plain")(
      "raw-names", "do not undo prof-text --folded's escapes (\\\\, \\xHH, \\n, \\r, \\t)")(
      "strict", "a line that is not folded stacks is an error naming it, not a skipped line")(
      "skip-invalid",
      "skip lines that are not folded stacks, counted in one warning per input (the default)");
  cli.AddAllowEmptyOption("an input without stacks");
  cli.AddSourceUriOption();
  cli.AddInputFormatOption();
  cli.AddMaxInputSizeOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  FoldedOptions options;
  if (cli.Has("type")) options.type = ParseFoldedType(cli.Get<std::string>("type"));
  options.thread_root = cli.Has("thread-root");
  options.keep_annotations = cli.Has("keep-annotations");
  options.raw_names = cli.Has("raw-names");
  if (cli.Has("strict") && cli.Has("skip-invalid")) {
    throw UsageError("--strict and --skip-invalid say opposite things: give one");
  }
  options.skip_invalid = !cli.Has("strict");
  options.allow_empty = cli.Has("allow-empty");
  if (cli.Has("frames")) {
    const std::string frames = cli.Get<std::string>("frames");
    if (frames != "split" && frames != "plain") {
      throw UsageError("--frames: " + Printable(frames) + " is neither split nor plain");
    }
    options.plain_frames = frames == "plain";
  }
  const std::vector<std::string> inputs = cli.Inputs();
  const std::optional<std::string> source_uri = cli.SourceUri();

  const ReadOptions read = cli.InputReadOptions();
  FoldedReader reader(options, read.warnings);
  for (const std::string& path : inputs) {
    Input input = OpenInput(path);
    // What is certainly another format is refused before a line of it is read.
    RequireFormat(input, kFoldedReader, read.format);
    reader.Add(input, source_uri ? *source_uri : DefaultSourceUri(input));
  }
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  // What the reader delivers must keep the format's rules: a violation is our bug, and throws.
  DiagnosticHandler bugs;
  CheckingSink checked(&writer, &bugs, kProgram);
  reader.Finish(&checked);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace folded2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::folded2prof::kProgram,
                               [&] { return proftools::folded2prof::Main(argc, argv); });
}
