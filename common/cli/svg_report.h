// prof-svg as a library: its options (the flame graph's, as flamegraph.pl's; --graph's, as
// pprof -svg's; differential; the filter options), every check of how they combine, and the
// picture they ask for. The program is a thin main over these; unit tests reach the checks here.
#ifndef PROFTOOLS_COMMON_CLI_SVG_REPORT_H_
#define PROFTOOLS_COMMON_CLI_SVG_REPORT_H_

#include <string>

#include "common/cli/cli.h"
#include "common/cli/filter_options.h"
#include "common/cli/profile_inputs.h"
#include "common/filter/filter_spec.h"
#include "common/io/byte_stream.h"
#include "common/load/read_profile.h"
#include "common/report/flame/flame_svg.h"
#include "common/report/flame/flame_tree.h"
#include "common/report/reports.h"

namespace proftools {

// What prof-svg's command line asks for, every combination checked.
struct SvgReportPlan {
  bool graph = false;  // --graph: pprof's call graph, else a flame graph
  std::string value;   // --value: a type name, "" for the default
  FilterSpec spec;
  ReportOptions graph_options;  // --graph's: granularity, trimming, filters
  // The flame graph's (the value index, unit and subtitle are set when the profile is read):
  FlameTreeOptions tree;
  FlameSvgOptions svg;
  bool subtitle_given = false;  // --subtitle: else the subtitle says what is drawn
  BaseSelection base;           // --diff-base, --base-time: inactive for none
  bool normalize = false;
};

// Adds prof-svg's options to `cli`.
void AddSvgReportOptions(CommandLine* cli);

// Reads the options AddSvgReportOptions added, after cli.Parse; UsageError for a bad value and
// for an option that does not go with the drawing asked for (a flame graph's with --graph, the
// call graph's without it) or with another option.
SvgReportPlan ParseSvgReportOptions(const CommandLine& cli);

// Reads `inputs` (one profile) and writes the SVG `plan` asks for to `out`. `read` reads the
// base the way the inputs are read; `program` names warnings.
void WriteSvgReport(const char* program, const SvgReportPlan& plan, ProfileInputs* inputs,
                    const ReadOptions& read, ByteSink* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_SVG_REPORT_H_
