#include "common/report/graph/graph_svg.h"

#include <utility>

#include "common/base/diagnostics.h"
#include "common/report/graph/graph_layout.h"
#include "common/report/web/web_assets.h"

namespace proftools {

GraphDrawing SplitGraphvizSvg(const std::string& graphviz_svg) {
  // Graphviz writes `<svg width="Wpt" height="Hpt" viewBox="0.00 0.00 W H" ...>`, then its
  // drawing, then `</svg>`.
  const size_t open = graphviz_svg.find("<svg");
  const size_t open_end = graphviz_svg.find('>', open);
  const size_t close = graphviz_svg.rfind("</svg>");
  const std::string attribute = "viewBox=\"";
  const size_t box = graphviz_svg.find(attribute, open);
  if (open == std::string::npos || open_end == std::string::npos || close == std::string::npos ||
      close < open_end || box == std::string::npos || box > open_end) {
    throw ProfError("", "graphviz: its SVG has no <svg viewBox=...> element");
  }
  const size_t box_start = box + attribute.size();
  const size_t box_end = graphviz_svg.find('"', box_start);
  if (box_end == std::string::npos || box_end > open_end) {
    throw ProfError("", "graphviz: its SVG's viewBox is not closed");
  }
  return {graphviz_svg.substr(box_start, box_end - box_start),
          graphviz_svg.substr(open_end + 1, close - open_end - 1)};
}

std::string GraphSvgPage(const std::string& graphviz_svg) {
  const GraphDrawing drawing = SplitGraphvizSvg(graphviz_svg);
  std::string page =
      "<?xml version=\"1.0\" standalone=\"no\"?>\n"
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
      "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n";
  // The whole window, the drawing fitted into it by the viewBox (also without the script, in
  // an image viewer).
  page += "<svg version=\"1.1\" width=\"100%\" height=\"100%\" viewBox=\"" + drawing.view_box +
          "\" xmlns=\"http://www.w3.org/2000/svg\" "
          "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n";
  page += "<style type=\"text/css\">\n";
  page += kWebGraphSvgCss;
  page += "</style>\n<g id=\"viewport\" transform=\"matrix(1 0 0 1 0 0)\">";
  page += drawing.body;
  page +=
      "</g>\n<text id=\"help\" x=\"0\" y=\"12\">drag: move, wheel or + -: zoom, 0: reset, "
      "hover: details</text>\n";
  // The script last, so that the drawing it works on exists when it runs.
  page += "<script type=\"text/ecmascript\"><![CDATA[\n";
  page += kWebGraphPanZoomJs;
  page += kWebGraphSvgJs;
  page += "]]></script>\n</svg>\n";
  return page;
}

std::vector<std::string> WriteGraphSvg(const StackTotals& totals, const ReportOptions& options,
                                       ByteSink* out, size_t max_nodes) {
  StringSink dot;
  WriteDotReport(totals, options, &dot);
  GraphLayout layout = LayoutDotToSvg(dot.text(), max_nodes);
  out->Write(GraphSvgPage(layout.svg));
  return std::move(layout.warnings);
}

}  // namespace proftools
