#include "common/elf/symbol_names.h"

#include <cxxabi.h>

#include <cstdlib>

namespace proftools {
namespace {

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

// Whether `text` occurs in `s` at `pos`; false, never an exception, when `pos` is out of range
// (the symbol is hostile input: string_view::compare throws past the end).
bool HasAt(std::string_view s, size_t pos, std::string_view text) {
  return pos <= s.size() && s.size() - pos >= text.size() && s.substr(pos, text.size()) == text;
}

// Rust's legacy mangling, as perf prints it when it demangled only the C++ layer:
// `gc::GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef`. The hash
// component is dropped and the `$..$` escapes decoded, as rustc-demangle does. Returns false
// when `symbol` does not end in a `::h<16 hex>` hash.
bool DemangleRustLegacy(std::string_view symbol, std::string* out) {
  constexpr size_t kHash = 3 + 16;  // "::h" + 16 hex digits
  if (symbol.size() <= kHash || !HasAt(symbol, symbol.size() - kHash, "::h")) {
    return false;
  }
  for (size_t i = symbol.size() - 16; i < symbol.size(); ++i) {
    if (!IsHex(symbol[i])) return false;
  }
  symbol.remove_suffix(kHash);
  static const struct {
    std::string_view code;
    char c;
  } kEscapes[] = {{"$SP$", '@'},   {"$BP$", '*'},  {"$RF$", '&'},  {"$LT$", '<'},  {"$GT$", '>'},
                  {"$LP$", '('},   {"$RP$", ')'},  {"$C$", ','},   {"$u7e$", '~'}, {"$u20$", ' '},
                  {"$u27$", '\''}, {"$u3d$", '='}, {"$u5b$", '['}, {"$u5d$", ']'}, {"$u7b$", '{'},
                  {"$u7d$", '}'},  {"$u3b$", ';'}, {"$u2b$", '+'}, {"$u21$", '!'}, {"$u22$", '"'}};
  out->clear();
  size_t i = 0;
  while (i < symbol.size()) {
    // A component starting `_$` is an escaped `$`.
    if (HasAt(symbol, i, "_$") && (i == 0 || (i >= 2 && HasAt(symbol, i - 2, "::")))) {
      ++i;
      continue;
    }
    if (symbol[i] == '$') {
      bool decoded = false;
      for (const auto& escape : kEscapes) {
        if (HasAt(symbol, i, escape.code)) {
          out->push_back(escape.c);
          i += escape.code.size();
          decoded = true;
          break;
        }
      }
      if (decoded) continue;
    }
    if (HasAt(symbol, i, "..")) {
      out->append("::");
      i += 2;
      continue;
    }
    out->push_back(symbol[i++]);
  }
  return true;
}

}  // namespace

SymbolName DemangleSymbol(std::string_view symbol) {
  SymbolName out;
  out.name.assign(symbol.data(), symbol.size());
  std::string rust;
  if (DemangleRustLegacy(symbol, &rust)) {
    out.system_name = std::move(out.name);
    out.name = std::move(rust);
    return out;
  }
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
