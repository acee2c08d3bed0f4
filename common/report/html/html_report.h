// prof-html's page: one self-contained HTML file (common/report/web/report.{html,css,js}
// embedded) with the profile aggregated by stack as JSON, from which the page's script draws the
// overall and self lists, the flame graph, the sequence view and the header; with the call graph
// view, each type's graph laid out by Graphviz (html_graphs.h) in a second JSON element. The data
// grows with distinct stacks, not with samples.
#ifndef PROFTOOLS_COMMON_REPORT_HTML_HTML_REPORT_H_
#define PROFTOOLS_COMMON_REPORT_HTML_HTML_REPORT_H_

#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/report/frames.h"
#include "common/report/html/sample_timeline.h"
#include "common/report/reports.h"
#include "common/report/stack_totals.h"

namespace proftools {

struct HtmlReportOptions {
  std::string title;    // empty: "Profile"
  int value_index = 0;  // the type shown first
  Granularity granularity = Granularity::kFunctions;
  std::string filter_description;            // FilterSpec::description
  const SampleTimeline* timeline = nullptr;  // the samples binned in time, or none
  // With --diff-base: the base's name (its files), shown by the page; `totals` then come from
  // DiffStackTotals (values the differences, base_values the base's) and no timeline is drawn.
  std::string base_name;
  // --source-path: the source pane's data (the functions' lines with values, their text where
  // the file was found; see SourceJson in html_report.cc for its bounds). Functions granularity.
  bool source = false;
  std::string source_path;  // directories separated by ':'
  std::string trim_path;    // prefixes separated by ':'
  // The call graph view (html_graphs.h): its trimming, or none for a page without it (a
  // difference, --no-graph). `totals` should then keep labels (LabelKeying::kExact).
  const ReportOptions* graph = nullptr;
};

// The source pane's bounds: the functions with the largest cumulative values (default type)
// whose lines are embedded; the lines of one function's file beyond which only those within
// kSourceMargin of a line with values are kept; the bytes of source text in a page.
constexpr size_t kSourcePaneFunctions = 1000;
constexpr int64_t kSourcePaneLines = 300;
constexpr size_t kSourcePaneBytes = size_t{2} << 20;

// Returns warnings for the program to show (the call graph's, html_graphs.h).
std::vector<std::string> WriteHtmlReport(const StackTotals& totals,
                                         const HtmlReportOptions& options, ByteSink* out);

// `text` as a JSON string literal, safe inside a <script> element: `<`, `>` and `&` written as
// \u escapes, control characters escaped; bytes that are not UTF-8 shown as DisplayFrameName
// shows them.
std::string PageJsonString(const std::string& text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_HTML_HTML_REPORT_H_
