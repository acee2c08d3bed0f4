#include "common/base/diagnostics.h"

#include <utility>

namespace proftools {

const char* RuleName(Rule rule) {
  switch (rule) {
    case Rule::kHeader:
      return "header";
    case Rule::kVersion:
      return "version";
    case Rule::kHeaderRepeated:
      return "header-repeated";
    case Rule::kFinalNewline:
      return "final-newline";
    case Rule::kLineTooLong:
      return "line-too-long";
    case Rule::kSyntax:
      return "syntax";
    case Rule::kUnknownRecord:
      return "unknown-record";
    case Rule::kFieldCount:
      return "field-count";
    case Rule::kNumber:
      return "number";
    case Rule::kFlags:
      return "flags";
    case Rule::kLineEntry:
      return "line-entry";
    case Rule::kLabel:
      return "label";
    case Rule::kOrder:
      return "order";
    case Rule::kRepeated:
      return "repeated";
    case Rule::kMetaDuplicate:
      return "meta-duplicate";
    case Rule::kTypeDuplicate:
      return "type-duplicate";
    case Rule::kNoTypes:
      return "no-types";
    case Rule::kIdZero:
      return "id-zero";
    case Rule::kIdDuplicate:
      return "id-duplicate";
    case Rule::kUndefined:
      return "undefined";
    case Rule::kValueCount:
      return "value-count";
    case Rule::kEmptyName:
      return "empty-name";
    case Rule::kNegativeLine:
      return "negative-line";
    case Rule::kNegativeTime:
      return "negative-time";
    case Rule::kInput:
      return "input";
  }
  return "unknown";
}

std::string Diagnostic::Format() const {
  std::string out = file;
  if (line != 0) out += ":" + std::to_string(line);
  if (!out.empty()) out += ": ";
  out += message;
  if (rule != Rule::kInput) {
    out += " [";
    out += RuleName(rule);
    out += "]";
  }
  return out;
}

ProfError::ProfError(Diagnostic diagnostic)
    : std::runtime_error(diagnostic.Format()), diagnostic_(std::move(diagnostic)) {}

ProfError::ProfError(std::string file, std::string message)
    : ProfError(Diagnostic{Rule::kInput, std::move(file), 0, std::move(message)}) {}

}  // namespace proftools
