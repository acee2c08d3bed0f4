// jfr2prof: Java Flight Recorder recordings (.jfr) -> prof text, with a choice of event types.
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/jfr/jfr_codec.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace jfr2prof {
namespace {

constexpr const char* kProgram = "jfr2prof";

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= list.size()) {
    const size_t comma = std::min(list.find(',', from), list.size());
    if (comma > from) out.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE]",
      "Convert a Java Flight Recorder recording (.jfr, from the JDK's -XX:StartFlightRecording "
      "or jcmd JFR.start, or async-profiler's -o jfr; gzipped or not) into canonical prof "
      "text. Every event with a stack trace is a sample with its time: execution samples weigh "
      "'samples count' and 'cpu nanoseconds' (the recording's period), allocation events "
      "bytes, blocking events (monitor enter and wait, park, sleep, socket and file I/O) their "
      "duration; each event type is a value type of its own. Labels: thread, tid, "
      "java-thread-id, state, class, event. Every program reads .jfr files as well; jfr2prof "
      "adds --events. With no FILE, or when FILE is -, reads standard input.",
      "Examples:\n"
      "  java -XX:StartFlightRecording=filename=rec.jfr,settings=profile App\n"
      "  jfr2prof rec.jfr | prof-text                          top functions by CPU\n"
      "  jfr2prof --events ExecutionSample,ThreadSleep -o rec.prof rec.jfr\n"
      "  prof2pprof rec.jfr -o cpu.pb.gz                       any program reads .jfr\n");
  cli.AddOptions()("events",
                   "keep only these event types (comma-separated; jdk. may be left out), e.g. "
                   "ExecutionSample,JavaMonitorEnter",
                   OptionValue(), "LIST")(
      "keep-lambda-ids",
      "keep the run's ids in the names of lambda and other hidden classes "
      "(App$$Lambda$94+0x00007f602c007c28.1908981452.run; default App$$Lambda.run)");
  cli.AddAllowEmptyOption("a recording without events with stack traces");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  JfrOptions options;
  options.keep_lambda_ids = cli.Has("keep-lambda-ids");
  if (cli.Has("events")) {
    options.events = SplitList(cli.Get<std::string>("events"));
    if (options.events.empty()) throw UsageError("--events: an empty list");
  }
  const std::vector<std::string> inputs = cli.Inputs();
  if (inputs.size() > 1) throw UsageError("one input at a time; combine profiles with prof-merge");
  const ReadOptions read = cli.InputReadOptions();
  Input input = OpenInput(inputs[0]);
  RequireFormat(input, kJfrReader, read.format);
  const ReadContext context = ReadContextFor(input, read);
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  // A violation of the format's rules would be the converter's bug: it throws.
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(&writer, &throw_on_violation, input.name);
  ReadJfr(input, context, options, &checked);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace jfr2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::jfr2prof::kProgram,
                               [&] { return proftools::jfr2prof::Main(argc, argv); });
}
