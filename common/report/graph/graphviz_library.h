// Graphviz's library (libgvc, with libcgraph), loaded the first time a graph is laid out rather
// than by every program at its start: its six shared libraries took a third of a program's
// start (2.3 of 6.8 ms of CPU, measured 2026-11-30), and only prof-svg --graph, prof-html's call
// graph and --dot's checks lay out a graph. The functions are Graphviz's own, called through
// pointers of their declared types.
#ifndef PROFTOOLS_COMMON_REPORT_GRAPH_GRAPHVIZ_LIBRARY_H_
#define PROFTOOLS_COMMON_REPORT_GRAPH_GRAPHVIZ_LIBRARY_H_

#include <graphviz/gvc.h>

namespace proftools {

struct GraphvizLibrary {
  decltype(&gvContext) context;
  decltype(&gvFreeContext) free_context;
  decltype(&gvLayout) layout;
  decltype(&gvFreeLayout) free_layout;
  decltype(&gvRenderData) render_data;
  decltype(&gvFreeRenderData) free_render_data;
  decltype(&agmemread) memread;
  decltype(&agclose) close;
  decltype(&agnnodes) nnodes;
  decltype(&agnedges) nedges;
  decltype(&agseterr) seterr;
  decltype(&agseterrf) seterrf;
};

// The library, loaded once (by its soname, PROFTOOLS_GVC_SONAME, which the Makefile reads from
// the libgvc pkg-config finds). Throws ProfError("graphviz: ...") when it cannot be loaded.
const GraphvizLibrary& Graphviz();

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_GRAPH_GRAPHVIZ_LIBRARY_H_
