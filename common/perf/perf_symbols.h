// Function names from perf's symbols: the offset is already gone (perf_script.h); here a
// mangled symbol (`perf script --no-demangle`, or a perf built without a demangler) is
// demangled with the C++ ABI demangler, and a Rust legacy symbol that perf demangled only
// partly (`Foo$LT$T$GT$::bar::h0123456789abcdef`) is finished; the raw form is kept as the
// system name.
#ifndef PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_
#define PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_

#include <string>
#include <string_view>

namespace proftools {

struct PerfSymbol {
  std::string name;         // what people read: demangled when it was mangled
  std::string system_name;  // the mangled form, or empty when perf printed it demangled
};

// Demangles `symbol` when it is an Itanium C++ ABI name (`_Z...`, which includes Rust's legacy
// mangling) or a partly demangled Rust legacy name; otherwise the name is the symbol unchanged.
PerfSymbol DemanglePerfSymbol(std::string_view symbol);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_
