// Options every report program reads the same way (prof-text, prof-svg, prof-html).
#ifndef PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
#define PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_

#include "common/cli/cli.h"
#include "common/report/frames.h"

namespace proftools {

// --granularity G: kFunctions when absent; UsageError naming the choices for another word.
Granularity GranularityOption(const CommandLine& cli);

// --min-percent P (from 0 to 100; UsageError with --no-trim, which keeps every row), else
// `fallback`.
double MinPercentOption(const CommandLine& cli, double fallback);

// --edge-percent P (from 0 to 100; UsageError with --no-trim, which keeps every edge), else
// `fallback`.
double EdgePercentOption(const CommandLine& cli, double fallback);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
