// Fast paths for the bulk of a large profile: `stack` and `sample` lines spelled canonically,
// parsed straight into a Record without tokenizing.
//
// Each accepts only a narrow spelling — the keyword, then fields each after exactly one space,
// numbers without leading zeros of at most 19 digits, nothing else — and returns false for any
// other line (a tab, a comment, a label, a 0 id, a long number...), possibly leaving the record
// half filled: the general path (Tokenize, ParseRecord) then parses the line afresh and reports
// what is wrong. What they accept, ParseRecord accepts too, with the same result.
#ifndef PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_
#define PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/model/record.h"

namespace proftools {

// `stack ID LOCATION...`
bool ParseCanonicalStack(std::string_view line, Record* record);

// `sample SOURCE STACK TIME DURATION VALUE... [LABELS]`: TIME and DURATION may be '-', then
// exactly `value_count` values (the declared types'); *labels is what follows them after one
// space, unparsed (empty when nothing does; record->sample.labels is left to the caller).
// A sample with fewer values, or a label where a value is due, is the general path's to report.
bool ParseCanonicalSample(std::string_view line, size_t value_count, Record* record,
                          std::string_view* labels);

// A `sample` line's SOURCE, TIME and DURATION ('-': none), the rest unread: for the first pass
// over sample times (sample_times.h), which tries the general spelling when this fails.
bool ParseCanonicalSampleTimes(std::string_view line, uint64_t* source,
                               std::optional<int64_t>* time, std::optional<int64_t>* duration);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_CANONICAL_LINES_H_
