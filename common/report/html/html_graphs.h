// prof-html's call graph view: for each value type, pprof's call graph (the graph of prof-text
// --dot, trimmed by the options given) laid out by Graphviz when the page is written, as the
// JSON the page's script reads (report.js). The page cannot lay out a graph itself, so the view
// shows the whole profile as the command line filtered it: not a time range brushed on the page.
#ifndef PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_
#define PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_

#include <memory>
#include <string>
#include <vector>

#include "common/report/reports.h"
#include "common/report/stack_totals.h"

namespace proftools {

// The graphs of every value type of `totals`, built from the stacks on other threads from
// construction (a third of prof-html's time on a large profile), while the caller writes the
// rest of the page: the totals are only read, and must outlive this object. `options` trims
// every graph (its value_index is ignored); `totals` should keep labels
// (LabelKeying::kExact) for the graph's tags.
class HtmlGraphs {
 public:
  HtmlGraphs(const StackTotals& totals, const ReportOptions& options);
  ~HtmlGraphs();  // waits for the threads
  HtmlGraphs(const HtmlGraphs&) = delete;
  HtmlGraphs& operator=(const HtmlGraphs&) = delete;

  // A JSON array with one element per value type: {"viewBox": ..., "svg": ...} (Graphviz's
  // drawing, SplitGraphvizSvg's body) or, when Graphviz could not lay the graph out or it was
  // too large (LayoutDotToSvg), {"note": why}, which also goes to `warnings` with Graphviz's own
  // warnings, each naming its type. This thread builds the graphs no other thread has begun;
  // each graph is laid out by the thread that built it as soon as it is (one layout at a time:
  // Graphviz has process-wide state), while the others are being built; a type whose graph
  // failed rethrows here, as it would have in order. Called once. Safe inside a <script>.
  std::string Json(std::vector<std::string>* warnings);

 private:
  void Build();
  // Lays out type t's graph: its part of the JSON and its warnings in the state.
  void Layout(size_t t, const std::string& dot);
  void Join();

  const StackTotals& totals_;
  const ReportOptions options_;
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_HTML_HTML_GRAPHS_H_
