#include "common/perf/perf_symbols.h"

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

PerfSymbol DemanglePerfSymbol(std::string_view symbol) {
  PerfSymbol out;
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

std::vector<std::string_view> SplitJitInlineChain(std::string_view symbol) {
  std::vector<std::string_view> parts;
  size_t arrow;
  while ((arrow = symbol.find("->")) != std::string_view::npos && arrow > 0 &&
         arrow + 2 < symbol.size()) {
    parts.push_back(symbol.substr(0, arrow));
    symbol.remove_prefix(arrow + 2);
  }
  parts.push_back(symbol);
  return parts;
}

std::string_view WithoutParameters(std::string_view name) {
  // Qualifiers after the list: ` const`, ` volatile`, ` &`, ` &&`, ` noexcept`, ` [clone .cold]`.
  for (bool again = true; again;) {
    again = false;
    for (std::string_view suffix : {" const", " volatile", " &&", " &", " noexcept"}) {
      if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
        name.remove_suffix(suffix.size());
        again = true;
      }
    }
  }
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return i == 0 ? name : name.substr(0, i);
  }
  return name;  // unbalanced: not a parameter list
}

std::string_view WithoutReturnType(std::string_view name) {
  // The last space outside <>, () and [] ends the return type, unless it follows `operator`
  // (a conversion: `Foo::operator bool`).
  int depth = 0;
  size_t cut = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    if ((c == '>' || c == ')' || c == ']') && depth > 0) --depth;
    if (c == ' ' && depth == 0) cut = i;
  }
  if (cut == std::string_view::npos) return name;
  const std::string_view before = name.substr(0, cut);
  constexpr std::string_view kOperator = "operator";
  if (before.size() >= kOperator.size() &&
      before.substr(before.size() - kOperator.size()) == kOperator) {
    return name;
  }
  return name.substr(cut + 1);
}

PerfSymbol DemangleAsPerf(std::string_view symbol) {
  // A PLT entry's name (`_ZNSt6thread4joinEv@plt`): perf demangles the symbol and keeps the
  // suffix (`std::thread::join@plt`); the system name is the whole entry's.
  constexpr std::string_view kPlt = "@plt";
  if (symbol.size() > kPlt.size() && symbol.substr(symbol.size() - kPlt.size()) == kPlt) {
    PerfSymbol out = DemangleAsPerf(symbol.substr(0, symbol.size() - kPlt.size()));
    out.name.append(kPlt);
    if (!out.system_name.empty()) out.system_name.assign(symbol.data(), symbol.size());
    return out;
  }
  PerfSymbol out = DemanglePerfSymbol(symbol);
  if (!out.system_name.empty() && symbol.substr(0, 2) == "_Z") {
    // A clone's ` [clone .constprop.0]` goes too: perf shows the function's name alone (the
    // mangled name keeps it).
    const size_t bracket = out.name.find(" [clone ");
    if (bracket != std::string::npos) out.name.resize(bracket);
    out.name = std::string(WithoutReturnType(WithoutParameters(out.name)));
  }
  return out;
}

}  // namespace proftools
