// prof-svg --graph: pprof's call graph (the DOT of prof-text --dot, report_dot.cc) laid out by
// Graphviz (graph_layout.h) and wrapped into one SVG page with the script for pan, zoom and
// hover embedded (common/report/web/graph-svg.js), so that it works opened from disk with no
// network. Graphviz's drawing is kept as it wrote it (node and edge groups, titles, tooltips):
// only its XML prolog, version comment and size go, the page's own taking their place.
#ifndef PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_SVG_H_
#define PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_SVG_H_

#include <cstddef>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/report/reports.h"
#include "common/report/stack_totals.h"

namespace proftools {

// More nodes, or edges, than this are refused rather than laid out (minutes of layout, unreadable).
constexpr size_t kMaxGraphNodes = 1000;

// Writes the page of the graph WriteDotReport draws for `totals` and `options`. Returns
// Graphviz's warnings for the program to show. Throws as LayoutDotToSvg does, before writing.
std::vector<std::string> WriteGraphSvg(const StackTotals& totals, const ReportOptions& options,
                                       ByteSink* out, size_t max_nodes = kMaxGraphNodes);

// Graphviz's SVG document split into its <svg> element's viewBox and its drawing (what lies
// between <svg ...> and </svg>), without the prolog naming Graphviz's version, which would make
// the bytes depend on it for nothing. Throws std::runtime_error when `graphviz_svg` has no
// <svg ...> element with a viewBox.
struct GraphDrawing {
  std::string view_box;
  std::string body;
};
GraphDrawing SplitGraphvizSvg(const std::string& graphviz_svg);

// Graphviz's SVG document as the page: its drawing inside <g id="viewport">, in a root that
// fills the window with Graphviz's viewBox, the style sheet and script embedded. Throws as
// SplitGraphvizSvg does.
std::string GraphSvgPage(const std::string& graphviz_svg);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_SVG_H_
