// prof-validate: check profiles against the rules of the prof text format.
#include <cstdio>
#include <string>

#include "common/base/counted.h"
#include "common/cli/cli.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/model/checker.h"
#include "common/model/sink.h"

namespace proftools {
namespace prof_validate {
namespace {

constexpr const char* kProgram = "prof-validate";

// Prints each violation as it is found and stops the file after `max_errors`.
class PrintingHandler : public DiagnosticHandler {
 public:
  explicit PrintingHandler(size_t max_errors) : max_errors_(max_errors) {}

  struct TooMany {};

  void Error(const Diagnostic& diagnostic) override {
    std::fprintf(stderr, "%s: %s\n", kProgram, diagnostic.Format().c_str());
    if (++errors_ >= max_errors_) throw TooMany{};
  }
  void Warning(const Diagnostic& diagnostic) override {
    Diagnostic shown = diagnostic;
    shown.message = "warning: " + shown.message;
    std::fprintf(stderr, "%s: %s\n", kProgram, shown.Format().c_str());
  }
  size_t errors() const { return errors_; }

 private:
  size_t max_errors_;
  size_t errors_ = 0;
};

// Counts what a valid profile holds, for --verbose.
class CountingSink : public ProfileSink {
 public:
  void OnHeader(const ProfileHeader& header) override {
    types_ = header.types.size();
    sources_ = header.sources.size();
  }
  void OnMapping(const Mapping&) override { ++mappings_; }
  void OnFunction(const Function&) override { ++functions_; }
  void OnLocation(const Location&) override { ++locations_; }
  void OnStack(const Stack&) override { ++stacks_; }
  void OnSample(const Sample&) override { ++samples_; }
  void OnEnd() override {}

  std::string Summary() const {
    return Counted(samples_, "sample", "samples") + ", " + Counted(stacks_, "stack", "stacks") +
           ", " + Counted(locations_, "location", "locations") + ", " +
           Counted(functions_, "function", "functions") + ", " +
           Counted(mappings_, "mapping", "mappings") + ", " + Counted(types_, "type", "types") +
           ", " + Counted(sources_, "source", "sources");
  }

 private:
  size_t types_ = 0, sources_ = 0, mappings_ = 0, functions_ = 0, locations_ = 0, stacks_ = 0,
         samples_ = 0;
};

// Validates one input; true when it is valid.
bool ValidateOne(const std::string& path, size_t max_errors, ReadOptions options, bool verbose) {
  PrintingHandler handler(max_errors);
  CountingSink counts;
  std::string name = path;
  try {
    Input input = OpenInput(path);
    name = input.name;
    options.handler = &handler;
    ReadProfile(input, &counts, options);
  } catch (const PrintingHandler::TooMany&) {
    std::fprintf(stderr, "%s: %s: stopped after %s (--max-errors)\n", kProgram, name.c_str(),
                 Counted(handler.errors(), "error", "errors").c_str());
    return false;
  } catch (const ProfError& e) {
    std::fprintf(stderr, "%s: %s\n", kProgram, e.diagnostic().Format().c_str());
    return false;
  }
  if (handler.errors() > 0) return false;
  if (verbose) std::printf("%s: valid: %s\n", name.c_str(), counts.Summary().c_str());
  return true;
}

int Main(int argc, char** argv) {
  CommandLine cli(kProgram, "[OPTION...] [FILE...]",
                  "Check profiles against every rule of the prof text format "
                  "(formats/prof-text.md). Prints nothing and exits 0 when every input is "
                  "valid; prints located messages (FILE:LINE: message [rule]) and exits 1 "
                  "otherwise. With no FILE, or when FILE is -, reads standard input; gzipped "
                  "input is read transparently.",
                  "Exit status: 0 all inputs valid, 1 some input invalid or unreadable, "
                  "2 usage error.\n");
  cli.AddOptions()("v,verbose", "print a one-line summary of each valid input")(
      "max-errors", "report at most N violations per input", OptionValue(), "N");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const size_t max_errors = cli.Has("max-errors") ? cli.Get<size_t>("max-errors") : 20;
  if (max_errors == 0) throw UsageError("--max-errors must be at least 1");
  bool all_valid = true;
  for (const std::string& path : cli.Inputs()) {
    all_valid =
        ValidateOne(path, max_errors, cli.InputReadOptions(), cli.Has("verbose")) && all_valid;
  }
  return all_valid ? kExitOk : kExitFailure;
}

}  // namespace
}  // namespace prof_validate
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof_validate::kProgram,
                               [&] { return proftools::prof_validate::Main(argc, argv); });
}
