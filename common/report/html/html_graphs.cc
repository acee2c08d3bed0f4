#include "common/report/html/html_graphs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>

#include "common/base/json_string.h"
#include "common/io/byte_stream.h"
#include "common/report/graph/graph_layout.h"
#include "common/report/graph/graph_svg.h"

namespace proftools {

std::string HtmlGraphsJson(const StackTotals& totals, const ReportOptions& options,
                           std::vector<std::string>* warnings) {
  const std::vector<ValueType>& types = totals.header().types;
  // Each type's graph built from the stacks (a third of prof-html's time on a large profile)
  // on up to as many threads as cores: the totals are only read. Laid out after, in order, on
  // this thread (Graphviz has process-wide state); a type whose graph failed rethrows there, as
  // it would have in order.
  std::vector<StringSink> dots(types.size());
  std::vector<std::exception_ptr> failed(types.size());
  std::atomic<size_t> next{0};
  auto build = [&] {
    for (size_t t; (t = next++) < types.size();) {
      try {
        ReportOptions graph_options = options;
        graph_options.value_index = static_cast<int>(t);
        WriteDotReport(totals, graph_options, &dots[t]);
      } catch (...) {
        failed[t] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  const size_t threads =
      std::min<size_t>(types.size(), std::max(1u, std::thread::hardware_concurrency()));
  for (size_t i = 1; i < threads; ++i) {
    try {
      helpers.emplace_back(build);
    } catch (const std::system_error&) {
      break;  // no thread to be had: this one builds the rest
    }
  }
  build();
  for (std::thread& helper : helpers) helper.join();

  std::string json = "[";
  for (size_t t = 0; t < types.size(); ++t) {
    if (failed[t]) std::rethrow_exception(failed[t]);
    const std::string type_name = types[t].type + "/" + types[t].unit;
    json += t ? ",{" : "{";
    try {
      GraphLayout layout = LayoutDotToSvg(dots[t].text(), kMaxGraphNodes);
      dots[t] = StringSink();  // freed once laid out
      const GraphDrawing drawing = SplitGraphvizSvg(layout.svg);
      for (const std::string& warning : layout.warnings) {
        warnings->push_back("the call graph of " + type_name + ": " + warning);
      }
      json += "\"viewBox\":" + JsonString(drawing.view_box, /*html_safe=*/true) +
              ",\"svg\":" + JsonString(drawing.body, /*html_safe=*/true) + "}";
    } catch (const std::exception& error) {
      // One graph that cannot be drawn (too large with --no-trim) must not cost the page.
      const std::string note = "the call graph of " + type_name + " is not drawn: " + error.what();
      warnings->push_back(note);
      json += "\"note\":" + JsonString(note, /*html_safe=*/true) + "}";
    }
  }
  return json + "]";
}

}  // namespace proftools
