// The command-line conventions every proftools program shares: option parsing (cxxopts, kept
// inside cli.cc: its header costs every includer seconds of compiling), --help and --version,
// inputs ("-" is stdin), -o, and the mapping of errors to messages and exit statuses (0 success, 1
// bad input or failure, 2 usage error).
#ifndef PROFTOOLS_COMMON_CLI_CLI_H_
#define PROFTOOLS_COMMON_CLI_CLI_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/cli/option_values.h"
#include "common/load/read_profile.h"

namespace proftools {

inline constexpr const char* kProftoolsVersion = "0.1.0";

enum ExitStatus { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

// "PROGRAM: warning: MESSAGE" on stderr.
void Warn(const std::string& program, const std::string& message);

// A DiagnosticHandler that prints warnings as "PROGRAM: warning: FILE:LINE: message" and, as
// every handler does by default, throws on errors.
class WarningPrinter : public DiagnosticHandler {
 public:
  explicit WarningPrinter(const char* program) : program_(program) {}
  void set_program(const char* program) { program_ = program; }
  void Warning(const Diagnostic& diagnostic) override { Warn(program_, diagnostic.Format()); }

 private:
  const char* program_;
};

// An option's value as declared: text, which CommandLine::Get<T> parses, so that a bad value is
// reported naming the option and the form it expects.
class OptionValue {
 public:
  // The value when the option is not given.
  OptionValue& default_value(std::string value) {
    default_value_ = std::move(value);
    has_default_value_ = true;
    return *this;
  }
  // The value when the option is given without one (`--gap` for `--gap=auto`).
  OptionValue& implicit_value(std::string value) {
    implicit_value_ = std::move(value);
    has_implicit_value_ = true;
    return *this;
  }

 private:
  friend class OptionAdder;
  std::string default_value_;
  std::string implicit_value_;
  bool has_default_value_ = false;
  bool has_implicit_value_ = false;
};

class CommandLine;

// Declares options, chained: AddOptions()("v,verbose", "say more")("o,output", "...",
// OptionValue(), "FILE"). NAMES is "LONG" or "S,LONG".
class OptionAdder {
 public:
  // A flag (no value).
  OptionAdder& operator()(const std::string& names, const std::string& help);
  // An option with a value; `value_name` is how --help names it.
  OptionAdder& operator()(const std::string& names, const std::string& help,
                          const OptionValue& value, const std::string& value_name = "");

 private:
  friend class CommandLine;
  OptionAdder(CommandLine* cli, std::string group) : cli_(cli), group_(std::move(group)) {}
  CommandLine* cli_;
  std::string group_;
};

class CommandLine {
 public:
  // `synopsis` follows the program name in the usage line ("[OPTION...] [FILE...]");
  // `description` is the one-paragraph summary; `epilog` (may be empty) is printed after the
  // options, for examples.
  CommandLine(std::string program, std::string synopsis, std::string description,
              std::string epilog = "");
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Adds options to the help group `group` ("" is the first, untitled group); groups are
  // listed in --help in the order they were first used. An option with a value is declared
  // OptionValue() whatever its type: Get<T> parses it.
  OptionAdder AddOptions(const std::string& group = "");
  // Lets `option` (a long name) be given several times: GetAll returns every value. Any other
  // option with a value given twice is a usage error (Parse), never "the last one wins".
  void AllowRepeated(const std::string& option) { repeatable_.insert(option); }
  // Adds -o/--output FILE.
  void AddOutputOption();
  // Adds --input-format FORMAT: a reader's name (common/load/readers.h), instead of sniffing.
  void AddInputFormatOption();
  // Adds --allow-empty (a converter): `empty_input` (such as "an input without samples") gives
  // a profile without samples, not an error. InputReadOptions carries it.
  void AddAllowEmptyOption(const std::string& empty_input);
  // Adds --source-uri URI (a converter): the URI recorded for the input's source.
  void AddSourceUriOption();
  // Its value, none when not given; a usage error with several inputs (it names one source).
  // Call after Parse.
  std::optional<std::string> SourceUri() const;
  // How the program's inputs are read, from the input options it has (--max-input-size,
  // --input-format, --allow-empty); converters' warnings are printed as "PROGRAM: warning: ...".
  // Call after Parse.
  ReadOptions InputReadOptions();
  DiagnosticHandler* warnings() { return &warnings_; }

  // Adds positional FILE... arguments. A program that reads standard input when given none
  // prints its usage instead when standard input is a terminal; one whose first argument is
  // not a profile (gprof2prof's EXECUTABLE) says what it lacks itself.
  void AddInputs(bool stdin_by_default = true);
  // Adds --max-input-size SIZE, the cap on a pprof input's inflated size (for programs that
  // read pprof: every reader of profiles); SIZE takes units (ParseByteSizeOption).
  void AddMaxInputSizeOption();
  // Its value, or the default (1 GiB).
  uint64_t MaxInputSize() const;

  // Parses argv; throws UsageError for a bad command line. Returns true when the program goes
  // on, false when Parse has done what the command line asked, and the program returns
  // exit_status(): --help and --version print their text (status 0); a program with inputs
  // given no FILE while standard input is a terminal prints a short usage to stderr (status 2)
  // instead of waiting for input.
  [[nodiscard]] bool Parse(int argc, char** argv);
  // After Parse returned false: the program's exit status.
  int exit_status() const { return exit_status_; }
  // Whether `option` was given; for a flag, also not given "=false".
  bool Has(const std::string& option) const;
  // The value of `option` (a long name): its text for std::string, parsed for an integer type
  // or a non-negative decimal for a floating-point type (UsageError naming the option when it
  // does not parse or fit).
  template <typename T>
  T Get(const std::string& option) const {
    if constexpr (std::is_same_v<T, std::string>) {
      return GetText(option);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      return GetTexts(option);
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(ParseDecimalOption(DisplayName(option), Get<std::string>(option)));
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      return static_cast<T>(ParseUnsignedOption(DisplayName(option), Get<std::string>(option),
                                                std::numeric_limits<T>::max()));
    } else {
      static_assert(std::is_integral_v<T> && std::is_signed_v<T>, "an option is text or a number");
      return static_cast<T>(ParseSignedOption(DisplayName(option), Get<std::string>(option),
                                              std::numeric_limits<T>::min(),
                                              std::numeric_limits<T>::max()));
    }
  }
  // An integer option's value, which must lie in [min, max] (UsageError naming both otherwise).
  int64_t GetInteger(const std::string& option, int64_t min, int64_t max) const {
    return ParseSignedOption(DisplayName(option), Get<std::string>(option), min, max);
  }
  // Every value of an AllowRepeated option, in command-line order.
  std::vector<std::string> GetAll(const std::string& option) const;
  // How messages name an option: "--nodecount", "-o/--output".
  std::string DisplayName(const std::string& option) const;

  // The input paths given, or {"-"} (stdin) when none.
  std::vector<std::string> Inputs() const;
  // The -o path, or "" for stdout.
  std::string OutputPath() const;

  const std::string& program() const { return program_; }

 private:
  friend class OptionAdder;
  struct Parser;  // cxxopts, in cli.cc

  std::string GetText(const std::string& option) const;
  std::vector<std::string> GetTexts(const std::string& option) const;
  void PrintUsageForTerminal() const;
  // When a word of argv is spelled as pprof spells its flags (`-top`, `-sample_index=1`), what to
  // type instead; empty otherwise. `known_only`: only for a word that is one of pprof's flags
  // or one of this program's long options behind one dash (checked before parsing, for every
  // program: cxxopts would take `-output=x` for `-o utput=x`); otherwise any word (after a
  // parse failed). A word that is an option's value (`--focus -top`) is not looked at.
  std::string PprofSpellingHint(int argc, char** argv, bool known_only = false) const;
  // Throws UsageError for an option with a value given more than once, unless AllowRepeated.
  void RefuseRepeatedValues() const;

  std::string program_;
  std::string synopsis_;
  std::string description_;
  std::string epilog_;
  std::vector<std::string> groups_;
  std::unique_ptr<Parser> parser_;
  bool has_inputs_ = false;
  bool stdin_by_default_ = true;
  int exit_status_ = kExitOk;
  std::set<std::string> repeatable_;
  WarningPrinter warnings_{nullptr};
};

// Runs `body` and maps what it throws to a message on stderr, prefixed "PROGRAM: ", and an exit
// status: ProfError -> 1, UsageError -> 2 (with a pointer to --help), anything else -> 1.
int RunProgram(const std::string& program, const std::function<int()>& body);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_CLI_H_
