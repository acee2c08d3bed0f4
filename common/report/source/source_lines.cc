#include "common/report/source/source_lines.h"

#include <algorithm>
#include <climits>
#include <set>
#include <unordered_map>
#include <utility>

#include "common/base/saturating.h"
#include "common/report/reports.h"

namespace proftools {

std::string DisplaySourceLine(std::string_view line) {
  if (line.find('\t') == std::string_view::npos) return DisplayFrameName(line);
  std::string out;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1) {
    out += DisplayFrameName(line.substr(start, tab - start)) + '\t';
  }
  return out + DisplayFrameName(line.substr(start));
}

std::string JavaSourceFile(std::string_view name) {
  // Identifiers of Java's (letters, digits, '_', '$', any non-ASCII byte) joined by dots.
  const size_t method_dot = name.rfind('.');
  if (method_dot == std::string_view::npos || method_dot == 0 || method_dot + 1 == name.size()) {
    return "";
  }
  bool after_dot = true;
  for (const char c : name) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
    if (c == '.' ? after_dot : !word) return "";  // no empty part, no other character
    after_dot = c == '.';
  }
  std::string_view type = name.substr(0, method_dot);
  const size_t package_end = type.rfind('.');
  const size_t simple = package_end == std::string_view::npos ? 0 : package_end + 1;
  // A nested, anonymous or lambda class is in its top-level class's file (Outer$Inner, Outer$1).
  const size_t nested = type.find('$', simple);
  if (nested == simple) return "";  // a name that starts with '$' is no class a file is named for
  if (nested != std::string_view::npos) type = type.substr(0, nested);
  std::string file(type);
  std::replace(file.begin(), file.end(), '.', '/');
  return file + ".java";
}

SourceLineValues AttributeSourceLines(const StackTotals& totals, int value_index,
                                      const SourceFiles& sources,
                                      const std::function<bool(const std::string&)>& selected,
                                      bool skip_lineless) {
  const Definitions& defs = totals.defs();
  // JFR names each frame's method and line, not its file: its frames are looked for in the file
  // their class is usually in (JavaSourceFile).
  bool from_jfr = false;
  for (const Source& source : totals.header().sources) from_jfr |= source.type == "jfr";
  // Per function id: whether it is selected, its name and trimmed file.
  struct FunctionInfo {
    bool selected = false;
    std::string name;
    std::string file;
  };
  std::unordered_map<uint64_t, FunctionInfo> functions;
  auto info_of = [&](uint64_t function_id) -> const FunctionInfo& {
    auto it = functions.find(function_id);
    if (it != functions.end()) return it->second;
    FunctionInfo info;
    if (const Function* f = defs.functions.Find(function_id)) {
      info.selected = selected(f->name);
      info.name = f->name;
      if (!f->file.empty()) {
        info.file = sources.Trim(f->file);
      } else if (from_jfr) {
        const std::string java = JavaSourceFile(f->name);
        if (!java.empty()) info.file = sources.Trim(java);
      }
    }
    return functions.emplace(function_id, std::move(info)).first->second;
  };

  SourceLineValues out;
  std::vector<std::pair<const FunctionInfo*, int64_t>> stack_nodes;
  std::set<std::pair<const FunctionInfo*, int64_t>> seen;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const Stack* stack = defs.stacks.Find(entry.stack_id);
    if (stack == nullptr) continue;
    const int64_t value = entry.values[value_index];
    stack_nodes.clear();
    bool leaf = true;
    bool leaf_selected = false;
    for (uint64_t location_id : stack->location_ids) {
      const Location* location = defs.locations.Find(location_id);
      if (location == nullptr) continue;
      bool any = false;
      for (const Line& line : location->lines) {
        if (skip_lineless && line.line == 0) continue;
        any = true;
        const FunctionInfo& info = info_of(line.function_id);
        if (info.selected) {
          stack_nodes.emplace_back(&info, line.line);
          if (leaf) leaf_selected = true;
        }
        leaf = false;
      }
      if (!any && !skip_lineless) leaf = false;
    }
    // Cum: each node once per stack (recursion counts once); flat: the leaf's.
    seen.clear();
    for (size_t i = 0; i < stack_nodes.size(); ++i) {
      const auto& [info, line] = stack_nodes[i];
      out.names.insert(info->name);
      if (info->file.empty()) continue;
      LineValues& values = out.lines[SourceLineValues::Key(info->name, info->file, line)];
      if (i == 0 && leaf_selected) AddSaturating(&values.flat, value);
      if (seen.insert(stack_nodes[i]).second) AddSaturating(&values.cum, value);
    }
  }
  return out;
}

std::vector<FunctionFile> FilesOf(const SourceLineValues& values, const std::string& name) {
  std::vector<FunctionFile> files;
  for (auto it = values.lines.lower_bound(SourceLineValues::Key(name, "", INT64_MIN));
       it != values.lines.end() && std::get<0>(it->first) == name; ++it) {
    const std::string& file = std::get<1>(it->first);
    if (files.empty() || files.back().file != file) files.push_back(FunctionFile{file, {}, 0, 0});
    FunctionFile& out = files.back();
    out.lines[std::get<2>(it->first)] = it->second;
    AddSaturating(&out.flat, it->second.flat);
    AddSaturating(&out.cum, it->second.cum);
  }
  return files;
}

SourceRange ShownRange(const std::map<int64_t, LineValues>& lines, const SourceText& text) {
  SourceRange range;
  if (lines.empty()) return range;
  const int64_t first = lines.begin()->first;
  const int64_t last = lines.rbegin()->first;
  const int64_t line_count = static_cast<int64_t>(text.lines.size());
  if (text.found) {
    range.first_shown = std::max<int64_t>(1, first - kSourceMargin);
    range.last_shown =
        std::min(line_count, last > INT64_MAX - kSourceMargin ? INT64_MAX : last + kSourceMargin);
  }
  for (const auto& entry : lines) {
    const int64_t n = entry.first;
    if (text.found && n >= 1 && n <= line_count) continue;
    range.beyond.push_back(n);
  }
  return range;
}

}  // namespace proftools
