// prof-text --list: pprof's -list (internal/report/source.go printSource). For each function
// whose name matches, each of its files with the lines around those that have samples; the
// values per line from source_lines.h.
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/report/reports.h"
#include "common/report/source/source_files.h"
#include "common/report/source/source_lines.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

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
  SourceFiles sources(list.source_path, list.trim_path);
  // At --granularity filelines, flat goes to the innermost frame with a line (source_lines.h).
  const SourceLineValues attributed = AttributeSourceLines(
      totals, v, sources, [&](const std::string& name) { return RE2::PartialMatch(name, regex); },
      options.granularity == Granularity::kFileLines);
  const std::set<std::string>& names = attributed.names;
  // Functions that match but are on no sample's stack are not pprof's graph nodes either.
  if (names.empty()) {
    throw UsageError("--list: no function on a sample's stack matches " + Printable(list.regex));
  }

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  auto fmt_or_dot = [&](int64_t value) { return value == 0 ? std::string(".") : fmt(value); };
  std::vector<std::string> warnings;
  std::string text = "Total: " + fmt(total) + "\n";
  char row[160];
  size_t without_source = 0;
  for (const std::string& name : names) {
    const std::vector<FunctionFile> files = FilesOf(attributed, name);
    if (files.empty()) {
      text += "No source information for " + DisplayFrameName(name) + "\n";
      ++without_source;
      continue;
    }
    for (const FunctionFile& function_file : files) {
      const std::string& file = function_file.file;
      const std::map<int64_t, LineValues>& lines = function_file.lines;
      const int64_t flat_sum = function_file.flat, cum_sum = function_file.cum;
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
      // The text's lines around those with samples; then (no file, or a file shorter than the
      // profile says) the lines with samples that have no text, values only.
      const SourceRange range = ShownRange(lines, source);
      for (int64_t n = range.first_shown; n <= range.last_shown; ++n) {
        auto it = lines.find(n);
        const LineValues values = it == lines.end() ? LineValues() : it->second;
        std::snprintf(row, sizeof row, "%10s %10s %6lld:", fmt_or_dot(values.flat).c_str(),
                      fmt_or_dot(values.cum).c_str(), static_cast<long long>(n));
        text += row;
        text += DisplaySourceLine(source.lines[n - 1]);
        text += '\n';
        WriteWhenLarge(&text, out);
      }
      for (int64_t n : range.beyond) {
        const LineValues& values = lines.at(n);
        std::snprintf(row, sizeof row, "%10s %10s %6lld:\n", fmt_or_dot(values.flat).c_str(),
                      fmt_or_dot(values.cum).c_str(), static_cast<long long>(n));
        text += row;
      }
      if (source.found && !range.beyond.empty()) {
        warnings.push_back(file + " has " + std::to_string(source.lines.size()) +
                           " lines, fewer than the profile's lines of " + Printable(name) +
                           ": those past its end are listed without text");
      }
    }
  }
  // perf script prints no file or line unless asked: say how to get them.
  bool from_perf_script = false;
  for (const Source& source : totals.header().sources) from_perf_script |= source.type == "perf";
  if (without_source > 0 && from_perf_script) {
    warnings.push_back(Counted(without_source, "function has", "functions have") +
                       " no file and line: perf script prints them with -F +srcline "
                       "(perf script -F +srcline | perf2prof), and perf2prof reads them "
                       "from a perf.data file itself");
  }
  out->Write(text);
  return warnings;
}

}  // namespace proftools
