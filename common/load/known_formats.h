// Formats that proftools recognises but does not read yet: one table, each with what to do
// instead, so that a user gets that advice rather than the list of formats read. The registry
// holds them as one reader that only advises (kKnownFormatsReader): a reader of one of them
// takes its line out of the table.
#ifndef PROFTOOLS_COMMON_LOAD_KNOWN_FORMATS_H_
#define PROFTOOLS_COMMON_LOAD_KNOWN_FORMATS_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: sniffs the table (kLikely), and its read throws the advice.
extern const ReaderSpec kKnownFormatsReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_LOAD_KNOWN_FORMATS_H_
