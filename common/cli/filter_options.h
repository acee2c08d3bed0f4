// The filter options shared by prof-filter and prof-text (one registration, so that
// `prof-text --time 10s..20s` and `prof-filter --time 10s..20s | prof-text` agree), and the
// driver that reads a program's inputs through the filter.
#ifndef PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_
#define PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/filter/filter_spec.h"
#include "common/model/sink.h"
#include "common/report/stack_totals.h"

namespace proftools {

// Adds the option groups Time, Labels, Frames and Values.
void AddFilterOptions(CommandLine* cli);

// Parses them. Throws UsageError naming the option for a bad value.
FilterSpec ParseFilterOptions(const CommandLine& cli);

enum class Reading {
  kAsProfile,  // writing a profile: without filter options, the profile passes unchanged
  kAsReport,   // reporting: the profile's drop_frames applies even without filter options
};

struct FilterResult {
  bool filtered = false;                      // the filter ran; then:
  uint64_t samples_before_frames = 0;         // see ProfileFilter::samples_before_frames
  std::vector<int64_t> values_before_frames;  // one per output type
  std::vector<uint64_t> samples_with_value_before_frames;  // one per output type
};

// Reads `inputs` as one profile through the filter of `spec` (a first pass when the spec needs
// one) into `sink`. Warns (as `program`) when the selection keeps no sample.
FilterResult ReadFiltered(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                          ProfileSink* sink, Reading reading = Reading::kAsProfile);

// ReadFiltered into canonical text, through the checker (a violation is a bug of the filter: it
// throws): prof-filter's output and prof-text --canonical's.
void WriteFilteredText(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                       ByteSink* out);

// ReadFiltered for a report: into `totals`, whose totals then are those from before the frame
// filters dropped samples, as pprof gives -focus's percentages of the whole profile.
void ReadStackTotals(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                     StackTotals* totals);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_
