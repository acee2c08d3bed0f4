#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "common/reports.h"
#include "common/value_format.h"

namespace proftools {
namespace {

struct Row {
  std::string name;
  int64_t flat = 0;
  int64_t cum = 0;
};

}  // namespace

void WriteTopReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  const int64_t total = totals.total_values()[v];
  FrameExpander frames(totals.defs(), options.granularity);

  // Flat: the leaf frame's value. Cum: every frame on the stack, counted once per stack even
  // when it appears several times (recursion), as pprof does.
  std::unordered_map<std::string, size_t> index;
  std::vector<Row> rows;
  std::vector<const Frame*> stack_frames;
  std::unordered_set<std::string> seen;
  auto row = [&](const std::string& name) -> Row& {
    auto inserted = index.emplace(name, rows.size());
    if (inserted.second) rows.push_back(Row{name, 0, 0});
    return rows[inserted.first->second];
  };
  for (const StackTotals::Entry& entry : totals.entries()) {
    const int64_t value = entry.values[v];
    stack_frames.clear();
    frames.StackFrames(entry.stack_id, &stack_frames);
    if (stack_frames.empty()) continue;
    row(stack_frames.front()->name).flat += value;
    seen.clear();
    for (const Frame* frame : stack_frames) {
      if (seen.insert(frame->name).second) row(frame->name).cum += value;
    }
  }

  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    const int64_t a1 = options.sort_by_cum ? a.cum : a.flat;
    const int64_t b1 = options.sort_by_cum ? b.cum : b.flat;
    if (a1 != b1) return a1 > b1;
    const int64_t a2 = options.sort_by_cum ? a.flat : a.cum;
    const int64_t b2 = options.sort_by_cum ? b.flat : b.cum;
    if (a2 != b2) return a2 > b2;
    return a.name < b.name;
  });
  const size_t shown =
      options.node_count == 0 ? rows.size() : std::min(rows.size(), options.node_count);
  int64_t shown_flat = 0;
  for (size_t i = 0; i < shown; ++i) shown_flat += rows[i].flat;

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  std::string text = ReportHeader(totals, options,
                                  "Showing nodes accounting for " + fmt(shown_flat) + ", " +
                                      FormatPercent(shown_flat, total) + " of " + fmt(total) +
                                      " total (" + std::to_string(totals.total_samples()) +
                                      (totals.total_samples() == 1 ? " sample)" : " samples)"));
  if (shown < rows.size()) {
    text += "Showing top " + std::to_string(shown) + " nodes out of " +
            std::to_string(rows.size()) + "\n";
  }
  char line[128];
  std::snprintf(line, sizeof line, "%10s %7s %7s %10s %7s\n", "flat", "flat%", "sum%", "cum",
                "cum%");
  text += line;
  int64_t running = 0;
  for (size_t i = 0; i < shown; ++i) {
    const Row& r = rows[i];
    running += r.flat;
    std::snprintf(line, sizeof line, "%10s %7s %7s %10s %7s  ", fmt(r.flat).c_str(),
                  FormatPercent(r.flat, total).c_str(), FormatPercent(running, total).c_str(),
                  fmt(r.cum).c_str(), FormatPercent(r.cum, total).c_str());
    text += line;
    text += DisplayFrameName(r.name);  // one row per line, whatever the name holds
    text += '\n';
  }
  out->Write(text);
}

}  // namespace proftools
