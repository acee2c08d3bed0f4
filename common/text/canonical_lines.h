// Fast paths for the bulk of a large profile: `stack` and `sample` lines spelled canonically,
// parsed straight into a Record without tokenizing.
//
// Each accepts only a narrow spelling — the keyword, then fields each after exactly one space,
// numbers without leading zeros of at most 18 digits, nothing else — and returns false for any
// other line (a tab, a comment, a label, a 0 id, a long number...), possibly leaving the record
// half filled: the general path (Tokenize, ParseRecord) then parses the line afresh and reports
// what is wrong. What they accept, ParseRecord accepts too, with the same result.
#ifndef PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_
#define PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_

#include <string_view>

#include "common/model/record.h"

namespace proftools {

// `stack ID LOCATION...`
bool ParseCanonicalStack(std::string_view line, Record* record);

// `sample SOURCE STACK TIME DURATION VALUE...`, without labels; TIME and DURATION may be '-'.
// Every number after DURATION is taken as a value: the caller uses the result only when their
// count is that of the declared types (otherwise the general path reports value-count or label).
bool ParseCanonicalSample(std::string_view line, Record* record);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_
