// prof-html's call graph view: for each value type, pprof's call graph (the graph of prof-text
// --dot, trimmed by the options given) laid out by Graphviz when the page is written, as the
// JSON the page's script reads (report.js). The page cannot lay out a graph itself, so the view
// shows the whole profile as the command line filtered it: not a time range brushed on the page.
#ifndef PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_
#define PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_

#include <string>
#include <vector>

#include "common/report/reports.h"
#include "common/report/stack_totals.h"

namespace proftools {

// A JSON array with one element per value type of `totals`: {"viewBox": ..., "svg": ...}
// (Graphviz's drawing, SplitGraphvizSvg's body) or, when Graphviz could not lay the graph out
// or it was too large (LayoutDotToSvg), {"note": why}, which also goes to `warnings` with
// Graphviz's own warnings, each naming its type. `options` trims every graph (its value_index is
// ignored); `totals` should keep labels (LabelKeying::kExact) for the graph's tags. The JSON is
// safe inside a <script> element.
std::string HtmlGraphsJson(const StackTotals& totals, const ReportOptions& options,
                           std::vector<std::string>* warnings);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_
