#include "common/report/graph/graphviz_library.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "common/base/diagnostics.h"

#ifndef PROFTOOLS_GVC_SONAME
#define PROFTOOLS_GVC_SONAME "libgvc.so.6"  // Debian 12's (graphviz 2.42)
#endif

namespace proftools {
namespace {

GraphvizLibrary Load() {
  // RTLD_LOCAL: its symbols serve only these pointers (dlsym searches the library and the
  // libraries it needs: cgraph's functions are found through libgvc's handle).
  void* handle = dlopen(PROFTOOLS_GVC_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw ProfError("", std::string("graphviz: cannot load its library " PROFTOOLS_GVC_SONAME) +
                            (why != nullptr ? std::string(": ") + why : std::string()) +
                            " (Debian's libgvc6 has it)");
  }
  GraphvizLibrary library;
  auto find = [handle](auto* function, const char* name) {
    void* symbol = dlsym(handle, name);
    if (symbol == nullptr) {
      throw ProfError("",
                      std::string("graphviz: its library " PROFTOOLS_GVC_SONAME " lacks ") + name);
    }
    *function = reinterpret_cast<std::remove_pointer_t<decltype(function)>>(symbol);
  };
  find(&library.context, "gvContext");
  find(&library.free_context, "gvFreeContext");
  find(&library.layout, "gvLayout");
  find(&library.free_layout, "gvFreeLayout");
  find(&library.render_data, "gvRenderData");
  find(&library.free_render_data, "gvFreeRenderData");
  find(&library.memread, "agmemread");
  find(&library.close, "agclose");
  find(&library.nnodes, "agnnodes");
  find(&library.nedges, "agnedges");
  find(&library.seterr, "agseterr");
  find(&library.seterrf, "agseterrf");
  return library;  // the handle stays open for the process's life
}

}  // namespace

const GraphvizLibrary& Graphviz() {
  static const GraphvizLibrary library = Load();
  return library;
}

}  // namespace proftools
