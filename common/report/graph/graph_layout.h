// A graph in Graphviz DOT laid out by Graphviz's own library (libgvc: the dot layout engine and
// its SVG renderer, what `dot -Tsvg` runs) in memory, loaded when first needed
// (graphviz_library.h: with it, the only files that include Graphviz's headers). Graphviz's
// messages (it writes them to stderr by default) are captured: errors become the exception,
// warnings are returned for the program to show as its own.
#ifndef PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_LAYOUT_H_
#define PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_LAYOUT_H_

#include <cstddef>
#include <string>
#include <vector>

namespace proftools {

struct GraphLayout {
  std::string svg;                    // Graphviz's SVG document, as `dot -Tsvg` writes it, no links
  size_t nodes = 0;                   // the nodes the DOT declared
  std::vector<std::string> warnings;  // Graphviz's warnings, each once, "(N times)" when repeated
};

// The dot layout rendered to SVG, without links (no href or xlink:href attribute: the call
// graph draws none, and a link would be a profile's string). Throws ProfError ("graphviz: ...")
// when Graphviz
// rejects the DOT or cannot lay it out, and UsageError when the graph has more than `max_nodes`
// nodes or as many edges (a layout of thousands takes minutes and is unreadable): checked after
// parsing, before the layout.
GraphLayout LayoutDotToSvg(const std::string& dot, size_t max_nodes);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_GRAPH_GRAPH_LAYOUT_H_
