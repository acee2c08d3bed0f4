#include "common/perf/perf_symbols.h"

namespace proftools {
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

SymbolName DemangleAsPerf(std::string_view symbol) {
  // A PLT entry's name (`_ZNSt6thread4joinEv@plt`): perf demangles the symbol and keeps the
  // suffix (`std::thread::join@plt`); the system name is the whole entry's.
  constexpr std::string_view kPlt = "@plt";
  if (symbol.size() > kPlt.size() && symbol.substr(symbol.size() - kPlt.size()) == kPlt) {
    SymbolName out = DemangleAsPerf(symbol.substr(0, symbol.size() - kPlt.size()));
    out.name.append(kPlt);
    if (!out.system_name.empty()) out.system_name.assign(symbol.data(), symbol.size());
    return out;
  }
  SymbolName out = DemangleSymbol(symbol);
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
