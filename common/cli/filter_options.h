// The filter options shared by prof-filter and prof-text (one registration, so that
// `prof-text --time 10s..20s` and `prof-filter --time 10s..20s | prof-text` agree), and the
// driver that reads a program's inputs through the filter.
#ifndef PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_
#define PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_

#include <string>

#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/filter/filter_spec.h"
#include "common/model/sink.h"

namespace proftools {

// Adds the option groups Time, Labels, Frames and Values.
void AddFilterOptions(CommandLine* cli);

// Parses them. Throws UsageError naming the option for a bad value.
FilterSpec ParseFilterOptions(const CommandLine& cli);

// Reads `inputs` as one profile through the filter of `spec` (a first pass when the spec needs
// one) into `sink`. Warns (as `program`) when the selection keeps no sample.
void ReadFiltered(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                  ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_
