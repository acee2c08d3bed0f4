#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <unordered_map>

#include "common/base/counted.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

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
  std::unordered_map<std::string_view, size_t> index;  // views of rows' names
  std::vector<Row> rows;
  std::vector<size_t> last_stack;  // per row: the last stack whose cum it has counted
  std::vector<const Frame*> stack_frames;
  auto row_of = [&](const std::string& name) -> size_t {
    auto it = index.find(name);
    if (it != index.end()) return it->second;
    rows.push_back(Row{name, 0, 0});
    last_stack.push_back(SIZE_MAX);
    // Frames live as long as `frames`, so a view of the frame's name stays valid.
    index.emplace(std::string_view(name), rows.size() - 1);
    return rows.size() - 1;
  };
  for (size_t e = 0; e < totals.entries().size(); ++e) {
    const StackTotals::Entry& entry = totals.entries()[e];
    const int64_t value = entry.values[v];
    stack_frames.clear();
    frames.StackFrames(entry.stack_id, &stack_frames);
    if (stack_frames.empty()) continue;
    rows[row_of(stack_frames.front()->name)].flat += value;
    for (const Frame* frame : stack_frames) {
      const size_t r = row_of(frame->name);
      if (last_stack[r] == e) continue;
      last_stack[r] = e;
      rows[r].cum += value;
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
    text += "Showing top " + Counted(shown, "node", "nodes") + " out of " +
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
