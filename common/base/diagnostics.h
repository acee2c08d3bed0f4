// Validation rules, located diagnostics, and the error type every program reports.
//
// Every violation of the format has a Rule with a short, stable name (formats/prof-text.md §6).
// A message reads `FILE:LINE: what is wrong [rule]`; programs prefix their own name.
#ifndef PROFTOOLS_COMMON_BASE_DIAGNOSTICS_H_
#define PROFTOOLS_COMMON_BASE_DIAGNOSTICS_H_

#include <cstdint>
#include <stdexcept>
#include <string>

namespace proftools {

enum class Rule {
  kHeader,
  kVersion,
  kHeaderRepeated,
  kFinalNewline,
  kLineTooLong,
  kSyntax,
  kUnknownRecord,
  kFieldCount,
  kNumber,
  kFlags,
  kLineEntry,
  kLabel,
  kOrder,
  kRepeated,
  kMetaDuplicate,
  kTypeDuplicate,
  kNoTypes,
  kIdZero,
  kIdDuplicate,
  kUndefined,
  kValueCount,
  kEmptyName,
  kNegativeLine,
  kNegativeTime,
  // Not rules of the text format, but located input errors of the same shape.
  kInput,  // unreadable, undecodable or unsupported input (I/O, gzip, wrong format)
};

// Every format rule, in the order of the spec's table (kInput excluded).
inline constexpr Rule kAllFormatRules[] = {
    Rule::kHeader,      Rule::kVersion,   Rule::kHeaderRepeated, Rule::kFinalNewline,
    Rule::kLineTooLong, Rule::kSyntax,    Rule::kUnknownRecord,  Rule::kFieldCount,
    Rule::kNumber,      Rule::kFlags,     Rule::kLineEntry,      Rule::kLabel,
    Rule::kOrder,       Rule::kRepeated,  Rule::kMetaDuplicate,  Rule::kTypeDuplicate,
    Rule::kNoTypes,     Rule::kIdZero,    Rule::kIdDuplicate,    Rule::kUndefined,
    Rule::kValueCount,  Rule::kEmptyName, Rule::kNegativeLine,   Rule::kNegativeTime,
};

// The stable name used in messages, e.g. "id-duplicate".
const char* RuleName(Rule rule);

// One violation. `line` is 1-based; 0 when the problem is not tied to a line (a whole file, or
// an in-memory profile).
struct Diagnostic {
  Rule rule = Rule::kInput;
  std::string file;
  uint64_t line = 0;
  std::string message;

  // "FILE:LINE: message [rule]" (":LINE" left out when line is 0; " [rule]" left out for kInput).
  std::string Format() const;
};

// The exception that carries a diagnostic to the program's main, which prints it and exits 1.
class ProfError : public std::runtime_error {
 public:
  explicit ProfError(Diagnostic diagnostic);
  // An input error not tied to a line: "FILE: message".
  ProfError(std::string file, std::string message);
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

// A command-line mistake (bad option, bad regular expression, …): programs exit with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Receives the diagnostics of a reader or checker. The default throws on the first error, which
// is what every program but prof-validate wants.
class DiagnosticHandler {
 public:
  virtual ~DiagnosticHandler() = default;
  // Called for each violation. May throw to stop reading.
  virtual void Error(const Diagnostic& diagnostic) { throw ProfError(diagnostic); }
  // Called for conditions that are not violations (e.g. records of a newer minor version that
  // were skipped).
  virtual void Warning(const Diagnostic& diagnostic) { (void)diagnostic; }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_DIAGNOSTICS_H_
