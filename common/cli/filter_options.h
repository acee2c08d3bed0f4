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

// Where ReadStackTotals adds the samples up: on the reading thread, or on the caller's while
// the reading (parsing, checking, filtering) runs on a thread of its own (ProduceOnThread: the
// same records in the same order), for totals whose own work is as heavy as the reading
// (prof-html's timeline); on one core, the reading thread still.
enum class Totalling { kOnTheReadingThread, kBesideTheReading };

// ReadFiltered for a report: into `totals`, whose totals then are those from before the frame
// filters dropped samples, as pprof gives -focus's percentages of the whole profile.
void ReadStackTotals(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                     StackTotals* totals, Totalling totalling = Totalling::kOnTheReadingThread);

// A diff's base (prof-text's and prof-svg's --diff-base FILE and --base-time A..B): what is
// read and through which filter.
struct BaseSelection {
  std::vector<std::string> paths;  // --diff-base's; the inputs' when only --base-time is given
  bool profile_itself = false;     // the base is the program's inputs (read from them again)
  FilterSpec spec;                 // the main filters, --base-time's window for --time/--last
  bool active() const { return !paths.empty(); }
};

// Adds --diff-base FILE (repeatable: several bases are one profile, as several inputs are) with
// `help`, what the program does with the base, and --normalize, to the help group `group`.
void AddDiffBaseOptions(CommandLine* cli, const std::string& group, const std::string& help);

// Adds --base-time (a program with --diff-base).
void AddBaseTimeOption(CommandLine* cli);

// The base the options ask for (inactive without --diff-base and --base-time). Comparing two
// windows of one profile is common, and `--time 90%.. --diff-base P P` is 0 everywhere: a
// base that is the profile itself with the same selection gets a warning.
BaseSelection ParseBaseSelection(const char* program, const CommandLine& cli,
                                 const FilterSpec& spec);

// Reads the base into `base`: from `inputs` when it is the profile itself (which the caller made
// readable again with ProfileInputs::MakeReplayable before reading it), else from its paths.
void ReadBaseTotals(const char* program, const BaseSelection& selection, ProfileInputs* inputs,
                    const ReadOptions& read, StackTotals* base);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_FILTER_OPTIONS_H_
