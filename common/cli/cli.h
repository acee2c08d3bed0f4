// The command-line conventions every proftools program shares: option parsing with cxxopts,
// --help and --version, inputs ("-" is stdin), -o, and the mapping of errors to messages and
// exit statuses (0 success, 1 bad input or failure, 2 usage error).
#ifndef PROFTOOLS_COMMON_CLI_CLI_H_
#define PROFTOOLS_COMMON_CLI_CLI_H_

#include <cxxopts.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"

namespace proftools {

inline constexpr const char* kProftoolsVersion = "0.1.0";

enum ExitStatus { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

class CommandLine {
 public:
  // `synopsis` follows the program name in the usage line ("[OPTION...] [FILE...]");
  // `description` is the one-paragraph summary; `epilog` (may be empty) is printed after the
  // options, for examples.
  CommandLine(std::string program, std::string synopsis, std::string description,
              std::string epilog = "");

  // Adds options to the help group `group` ("" is the first, untitled group); groups are
  // listed in --help in the order they were first used.
  cxxopts::OptionAdder AddOptions(const std::string& group = "");
  // Adds -o/--output FILE.
  void AddOutputOption();
  // Adds positional FILE... arguments.
  void AddInputs();
  // Adds --max-input-size N, the cap on a pprof input's inflated size (for programs that read
  // pprof: every reader of profiles).
  void AddMaxInputSizeOption();
  // Its value, or the default (1 GiB).
  uint64_t MaxInputSize() const;

  // Parses argv. Prints help or version and exits 0 when asked; throws UsageError otherwise.
  // A program with inputs given no FILE while standard input is a terminal prints a short
  // usage to stderr and exits 2 instead of waiting for input.
  void Parse(int argc, char** argv);
  const cxxopts::ParseResult& result() const { return result_; }
  bool Has(const std::string& option) const { return result_.count(option) > 0; }
  template <typename T>
  T Get(const std::string& option) const {
    return result_[option].as<T>();
  }

  // The input paths given, or {"-"} (stdin) when none.
  std::vector<std::string> Inputs() const;
  // The -o path, or "" for stdout.
  std::string OutputPath() const;

  const std::string& program() const { return program_; }

 private:
  [[noreturn]] void ExitWithUsageForTerminal() const;

  std::string program_;
  std::string synopsis_;
  std::string description_;
  std::string epilog_;
  std::vector<std::string> groups_;
  cxxopts::Options options_;
  cxxopts::ParseResult result_;
  bool has_inputs_ = false;
};

// Runs `body` and maps what it throws to a message on stderr, prefixed "PROGRAM: ", and an exit
// status: ProfError -> 1, UsageError -> 2 (with a pointer to --help), anything else -> 1.
int RunProgram(const std::string& program, const std::function<int()>& body);

// "PROGRAM: warning: MESSAGE" on stderr.
void Warn(const std::string& program, const std::string& message);

// A DiagnosticHandler that prints warnings as "PROGRAM: warning: FILE:LINE: message" and, as
// every handler does by default, throws on errors.
class WarningPrinter : public DiagnosticHandler {
 public:
  explicit WarningPrinter(const char* program) : program_(program) {}
  void Warning(const Diagnostic& diagnostic) override { Warn(program_, diagnostic.Format()); }

 private:
  const char* program_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_CLI_H_
