#include "common/report/html/html_graphs.h"

#include <exception>

#include "common/base/json_string.h"
#include "common/io/byte_stream.h"
#include "common/report/graph/graph_layout.h"
#include "common/report/graph/graph_svg.h"

namespace proftools {

std::string HtmlGraphsJson(const StackTotals& totals, const ReportOptions& options,
                           std::vector<std::string>* warnings) {
  std::string json = "[";
  const std::vector<ValueType>& types = totals.header().types;
  for (size_t t = 0; t < types.size(); ++t) {
    const std::string type_name = types[t].type + "/" + types[t].unit;
    ReportOptions graph_options = options;
    graph_options.value_index = static_cast<int>(t);
    StringSink dot;
    WriteDotReport(totals, graph_options, &dot);
    json += t ? ",{" : "{";
    try {
      GraphLayout layout = LayoutDotToSvg(dot.text(), kMaxGraphNodes);
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
