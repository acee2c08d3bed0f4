// Function names from perf's symbols: the offset is already gone (perf_script.h); a mangled
// symbol (`perf script --no-demangle`, or a perf built without a demangler) is demangled by
// DemangleSymbol (common/elf/symbol_names.h), and here named as perf names it.
#ifndef PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_
#define PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/elf/symbol_names.h"

namespace proftools {

// As perf names a function it demangled itself (perf script and perf report without -v): the
// demangled name without its parameter list and what follows it (`ns::Class::f(int) const` is
// `ns::Class::f`; a clone's `[clone .cold]` goes too; template arguments stay). The mangled
// form is the system name.
SymbolName DemangleAsPerf(std::string_view symbol);

// The frames of a JIT map's symbol, outermost first: perf-map-agent writes inlined Java frames
// as `outer->inner->innermost`; elsewhere `->` is part of a name (`operator->`), so call this
// for JIT code only. An arrow with nothing after it (`Interpret->`) separates nothing: it stays
// in the name, which must not be empty.
std::vector<std::string_view> SplitJitInlineChain(std::string_view symbol);

// `name` without its final parameter list (and the qualifiers after it): the function name
// perf shows for a demangled C++ name. A name without one is returned whole.
std::string_view WithoutParameters(std::string_view name);

// `name` without the return type a demangler writes before a template function's name
// (`bool ns::f<bool>` is `ns::f<bool>`), as perf shows it.
std::string_view WithoutReturnType(std::string_view name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_SYMBOLS_H_
