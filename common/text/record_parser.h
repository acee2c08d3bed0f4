// Turns the tokens of one line into a Record, enforcing the field-level rules of the format
// (field-count, number, flags, line-entry, label; formats/prof-text.md §4 and §6).
#ifndef PROFTOOLS_COMMON_TEXT_RECORD_PARSER_H_
#define PROFTOOLS_COMMON_TEXT_RECORD_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/model/record.h"

namespace proftools {

struct ParseFailure {
  Rule rule = Rule::kSyntax;
  std::string message;
  // The id of a definition record whose id parsed although the rest did not (0 otherwise), so
  // that the checker does not report every later reference to it.
  uint64_t id = 0;
};

// Parses `tokens` (tokens[0] is the keyword of `kind`) into *record. A sample's values are the
// `sample_values` fields after DURATION (one per declared type), the fields after them labels.
// Returns false and fills *failure at the first malformed field, left to right (§6.1).
bool ParseRecord(RecordKind kind, const std::vector<std::string_view>& tokens, size_t sample_values,
                 Record* record, ParseFailure* failure);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_RECORD_PARSER_H_
