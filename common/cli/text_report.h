// prof-text's reports as a library: its options (modes, report options, the filter options,
// the folded view's), every check of how they combine, and the report they ask for. The program
// is a thin main over these; unit tests reach the checks here.
#ifndef PROFTOOLS_COMMON_CLI_TEXT_REPORT_H_
#define PROFTOOLS_COMMON_CLI_TEXT_REPORT_H_

#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/filter/filter_spec.h"
#include "common/io/byte_stream.h"
#include "common/load/read_profile.h"
#include "common/report/reports.h"
#include "common/report/text/folded_view.h"
#include "common/report/text/timeline.h"

namespace proftools {

enum class TextMode {
  kTop,
  kTraces,
  kTree,
  kFolded,
  kCanonical,
  kSequences,
  kPeek,
  kPeekSeq,
  kTags,
  kTimeline,
  kList,
  kDot
};

// --diff-base FILE: the base, read through the same filter as the profile (as pprof filters
// the profile it combined from both).
struct DiffBase {
  BaseSelection base;  // inactive: no base
  bool normalize = false;
};

// What prof-text's command line asks for, every combination checked.
struct TextReportPlan {
  TextMode mode = TextMode::kTop;
  std::string value;  // --value: a type name, "" for the default
  ReportOptions options;
  FoldedViewOptions view;  // --folded's stackcollapse options
  DiffBase diff_base;
  FilterSpec spec;
  TimelineOptions timeline;     // --timeline's bucket and --csv
  std::string timeline_bucket;  // as given ("" for the default)
};

// Adds prof-text's options (modes, report, sequences, folded view, the filter options) to `cli`.
void AddTextReportOptions(CommandLine* cli);

// Reads the options AddTextReportOptions added, after cli.Parse; UsageError for any option that
// does not go with the mode or with another option.
TextReportPlan ParseTextReportOptions(const CommandLine& cli);

// Reads `inputs` (one profile) and writes the report `plan` asks for to `out`. `read` reads a
// --diff-base the way the inputs are read; `program` names warnings.
void WriteTextReport(const char* program, const TextReportPlan& plan, ProfileInputs* inputs,
                     const ReadOptions& read, ByteSink* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_TEXT_REPORT_H_
