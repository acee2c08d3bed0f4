// Options every report program reads the same way (prof-text, prof-svg, prof-html).
#ifndef PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
#define PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_

#include <string>

#include "common/cli/cli.h"
#include "common/report/frames.h"
#include "common/report/reports.h"

namespace proftools {

// Adds --value TYPE (`value_help`: what the type is for) and --granularity G to the help's group
// `group`.
void AddValueAndGranularityOptions(CommandLine* cli, const std::string& group,
                                   const std::string& value_help);

// --granularity G: kFunctions when absent; UsageError naming the choices for another word.
Granularity GranularityOption(const CommandLine& cli);

// --min-percent P (from 0 to 100; UsageError with --no-trim, which keeps every row), else
// `fallback`.
double MinPercentOption(const CommandLine& cli, double fallback);

// --edge-percent P (from 0 to 100; UsageError with --no-trim, which keeps every edge), else
// `fallback`.
double EdgePercentOption(const CommandLine& cli, double fallback);

// The call graph's trimming, as pprof -svg's (prof-svg --graph, prof-html's call graph view):
// --nodecount, --min-percent, --edge-percent and --no-trim in the help's group `group`, each
// help text after `lead` ("with --graph: ").
void AddCallGraphOptions(CommandLine* cli, const std::string& group, const std::string& lead);

// Those options into `options`: pprof's defaults (80 nodes, nodes under 0.5% and edges under
// 0.1% of the total left out) unless given, nothing left out with --no-trim.
void ReadCallGraphOptions(const CommandLine& cli, ReportOptions* options);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_REPORT_OPTIONS_H_
