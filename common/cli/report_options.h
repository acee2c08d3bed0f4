// Options every report program reads the same way (prof-text, prof-svg, prof-html).
#ifndef PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
#define PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_

#include "common/cli/cli.h"
#include "common/report/frames.h"

namespace proftools {

// --granularity G: kFunctions when absent; UsageError naming the choices for another word.
Granularity GranularityOption(const CommandLine& cli);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
