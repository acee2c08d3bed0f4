#include "common/perf_symbols.h"

#include <cxxabi.h>

#include <cstdlib>

namespace proftools {

PerfSymbol DemanglePerfSymbol(std::string_view symbol) {
  PerfSymbol out;
  out.name.assign(symbol.data(), symbol.size());
  if (symbol.size() < 3 || symbol[0] != '_' || symbol[1] != 'Z') return out;
  int status = 0;
  char* demangled = abi::__cxa_demangle(out.name.c_str(), nullptr, nullptr, &status);
  if (status == 0 && demangled != nullptr && *demangled != '\0') {
    out.system_name = std::move(out.name);
    out.name = demangled;
  }
  std::free(demangled);
  return out;
}

}  // namespace proftools
