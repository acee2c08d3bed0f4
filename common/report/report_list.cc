// prof-text --list: pprof's -list (internal/report/source.go printSource). Frames at line
// granularity, every inlined line a frame of its own, as pprof's graph makes them; for each
// function whose name matches, each of its files with the lines around those that have samples.
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/report/reports.h"
#include "common/report/source_files.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// Lines shown before the first and after the last line with samples (pprof's margin).
constexpr int64_t kMargin = 5;

struct LineValues {
  int64_t flat = 0;
  int64_t cum = 0;
};

// A source line as text for one row: tabs kept, as pprof prints them; other control bytes and
// invalid UTF-8 escaped so that a line stays one line.
std::string DisplaySourceLine(std::string_view line) {
  if (line.find('\t') == std::string_view::npos) return DisplayFrameName(line);
  std::string out;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1) {
    out += DisplayFrameName(line.substr(start, tab - start)) + '\t';
  }
  return out + DisplayFrameName(line.substr(start));
}

// pprof's measurement.Percentage, which -list's headers use (not -top's format): "  100%" near
// 100, two decimals from 1%, two significant digits below.
std::string ListPercentage(int64_t value, int64_t total) {
  const double ratio =
      total == 0 ? 0 : std::fabs(static_cast<double>(value) / static_cast<double>(total)) * 100;
  char text[64];
  if (ratio >= 99.95 && ratio <= 100.05) return "  100%";
  std::snprintf(text, sizeof text, ratio >= 1.0 ? "%5.2f%%" : "%5.2g%%", ratio);
  return text;
}

}  // namespace

std::vector<std::string> WriteListReport(const StackTotals& totals, const ReportOptions& options,
                                         ByteSink* out) {
  const ListOptions& list = options.list;
  RE2 regex(list.regex, RE2::Quiet);
  if (!regex.ok()) throw UsageError("--list: bad regular expression " + Printable(list.regex));
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  const int64_t total = totals.total_values()[v];
  const Definitions& defs = totals.defs();
  SourceFiles sources(list.source_path, list.trim_path);

  // Per matching function id: its name and trimmed file (-1: does not match).
  struct FunctionInfo {
    bool matches = false;
    std::string name;
    std::string file;
  };
  std::unordered_map<uint64_t, FunctionInfo> functions;
  auto info_of = [&](uint64_t function_id) -> const FunctionInfo& {
    auto it = functions.find(function_id);
    if (it != functions.end()) return it->second;
    FunctionInfo info;
    if (const Function* f = defs.functions.Find(function_id)) {
      info.matches = RE2::PartialMatch(f->name, regex);
      info.name = f->name;
      if (!f->file.empty()) info.file = sources.Trim(f->file);
    }
    return functions.emplace(function_id, std::move(info)).first->second;
  };

  // (name, file, line) -> values; pprof's node identity at line granularity.
  using Key = std::tuple<std::string, std::string, int64_t>;
  std::map<Key, LineValues> nodes;
  std::set<std::string> names;  // every matching function, with or without a file
  std::vector<std::pair<const FunctionInfo*, int64_t>> stack_nodes;
  std::set<std::pair<const FunctionInfo*, int64_t>> seen;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const Stack* stack = defs.stacks.Find(entry.stack_id);
    if (stack == nullptr) continue;
    const int64_t value = entry.values[v];
    stack_nodes.clear();
    bool leaf = true;
    bool leaf_matches = false;
    for (uint64_t location_id : stack->location_ids) {
      const Location* location = defs.locations.Find(location_id);
      if (location == nullptr) continue;
      for (const Line& line : location->lines) {
        const FunctionInfo& info = info_of(line.function_id);
        if (info.matches) {
          stack_nodes.emplace_back(&info, line.line);
          if (leaf) leaf_matches = true;
        }
        leaf = false;
      }
      if (location->lines.empty()) leaf = false;
    }
    // Cum: each node once per stack (recursion counts once); flat: the leaf's.
    seen.clear();
    for (size_t i = 0; i < stack_nodes.size(); ++i) {
      const auto& [info, line] = stack_nodes[i];
      names.insert(info->name);
      if (info->file.empty()) continue;
      LineValues& values = nodes[Key(info->name, info->file, line)];
      if (i == 0 && leaf_matches) AddSaturating(&values.flat, value);
      if (seen.insert(stack_nodes[i]).second) AddSaturating(&values.cum, value);
    }
  }
  // Functions that match but are on no sample's stack are not pprof's graph nodes either.
  if (names.empty()) {
    throw UsageError("--list: no function on a sample's stack matches " + Printable(list.regex));
  }

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  auto fmt_or_dot = [&](int64_t value) { return value == 0 ? std::string(".") : fmt(value); };
  std::vector<std::string> warnings;
  std::string text = "Total: " + fmt(total) + "\n";
  char row[160];
  for (const std::string& name : names) {
    auto begin = nodes.lower_bound(Key(name, "", INT64_MIN));
    if (begin == nodes.end() || std::get<0>(begin->first) != name) {
      text += "No source information for " + DisplayFrameName(name) + "\n";
      continue;
    }
    for (auto file_begin = begin;
         file_begin != nodes.end() && std::get<0>(file_begin->first) == name;) {
      const std::string& file = std::get<1>(file_begin->first);
      auto file_end = file_begin;
      int64_t flat_sum = 0, cum_sum = 0;
      int64_t first = INT64_MAX, last = INT64_MIN;
      std::map<int64_t, LineValues> lines;
      for (; file_end != nodes.end() && std::get<0>(file_end->first) == name &&
             std::get<1>(file_end->first) == file;
           ++file_end) {
        const int64_t line = std::get<2>(file_end->first);
        AddSaturating(&flat_sum, file_end->second.flat);
        AddSaturating(&cum_sum, file_end->second.cum);
        first = std::min(first, line);
        last = std::max(last, line);
        lines[line] = file_end->second;
      }
      text += "ROUTINE ======================== " + DisplayFrameName(name) + " in " +
              DisplayFrameName(file) + "\n";
      std::snprintf(row, sizeof row, "%10s %10s (flat, cum) %s of Total\n", fmt(flat_sum).c_str(),
                    fmt(cum_sum).c_str(), ListPercentage(cum_sum, total).c_str());
      text += row;
      const SourceText& source = sources.Get(file);
      if (!source.found) {
        warnings.push_back(source.problem + ": the lines of " + Printable(name) +
                           " are listed without their text");
      }
      const int64_t start = std::max<int64_t>(1, first - kMargin);
      const int64_t end = last > INT64_MAX - kMargin ? INT64_MAX : last + kMargin;
      const int64_t line_count = static_cast<int64_t>(source.lines.size());
      // The text's lines around those with samples; then (no file, or a file shorter than the
      // profile says) the lines with samples that have no text, values only.
      for (int64_t n = start; source.found && n <= std::min(end, line_count); ++n) {
        auto it = lines.find(n);
        const LineValues values = it == lines.end() ? LineValues() : it->second;
        std::snprintf(row, sizeof row, "%10s %10s %6lld:", fmt_or_dot(values.flat).c_str(),
                      fmt_or_dot(values.cum).c_str(), static_cast<long long>(n));
        text += row;
        text += DisplaySourceLine(source.lines[n - 1]);
        text += '\n';
        WriteWhenLarge(&text, out);
      }
      bool beyond = false;
      for (const auto& [n, values] : lines) {
        if (source.found && n >= 1 && n <= line_count) continue;
        beyond = beyond || source.found;
        std::snprintf(row, sizeof row, "%10s %10s %6lld:\n", fmt_or_dot(values.flat).c_str(),
                      fmt_or_dot(values.cum).c_str(), static_cast<long long>(n));
        text += row;
      }
      if (beyond) {
        warnings.push_back(file + " has " + std::to_string(line_count) +
                           " lines, fewer than the profile's lines of " + Printable(name) +
                           ": those past its end are listed without text");
      }
      file_begin = file_end;
    }
  }
  out->Write(text);
  return warnings;
}

}  // namespace proftools
