// A symbol's name as people read it: an Itanium C++ ABI name (`_Z...`, Rust's legacy mangling
// among them) demangled by the C++ ABI's demangler, and a Rust legacy name that a tool
// demangled only partly (`Foo$LT$T$GT$::bar::h0123456789abcdef`, as perf prints it) finished;
// the raw form is kept as the system name. Shared by the readers that name functions from
// symbols: perf's, V8's tick log.
#ifndef PROFTOOLS_COMMON_ELF_SYMBOL_NAMES_H_
#define PROFTOOLS_COMMON_ELF_SYMBOL_NAMES_H_

#include <string>
#include <string_view>

namespace proftools {

struct SymbolName {
  std::string name;         // what people read: demangled when it was mangled
  std::string system_name;  // the mangled form, or empty when it was not mangled
};

// Demangles `symbol` when it is an Itanium C++ ABI name or a partly demangled Rust legacy name;
// otherwise the name is the symbol unchanged.
SymbolName DemangleSymbol(std::string_view symbol);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_SYMBOL_NAMES_H_
