// prof-html as a library: its options (the report's, differential, the call graph view's, the
// source pane's, the filter options), every check of how they combine, and the page they ask
// for. The program is a thin main over these; unit tests reach the checks here.
#ifndef PROFTOOLS_COMMON_CLI_HTML_PAGE_H_
#define PROFTOOLS_COMMON_CLI_HTML_PAGE_H_

#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/filter/filter_spec.h"
#include "common/io/byte_stream.h"
#include "common/load/read_profile.h"
#include "common/report/html/html_report.h"
#include "common/report/reports.h"

namespace proftools {

// What prof-html's command line asks for, every combination checked.
struct HtmlPagePlan {
  std::string value;  // --value: the type shown first, "" for the default
  FilterSpec spec;
  // The page's options but what reading sets (the value index, the timeline, the graph's).
  HtmlReportOptions page;
  bool with_graph = false;              // the call graph view: not --no-graph, not a difference
  ReportOptions graph;                  // its trimming
  std::vector<std::string> base_files;  // --diff-base: none for a plain page
  bool normalize = false;
};

// Adds prof-html's options to `cli`.
void AddHtmlPageOptions(CommandLine* cli);

// Reads the options AddHtmlPageOptions added, after cli.Parse; UsageError for a bad value and
// for an option that does not go with the page asked for or with another option.
HtmlPagePlan ParseHtmlPageOptions(const CommandLine& cli);

// Reads `inputs` (one profile) and writes the page `plan` asks for to `out`. `read` reads the
// base the way the inputs are read; `program` names warnings.
void WriteHtmlPage(const char* program, const HtmlPagePlan& plan, ProfileInputs* inputs,
                   const ReadOptions& read, ByteSink* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_HTML_PAGE_H_
