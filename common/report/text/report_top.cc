#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "common/base/byte_arena.h"
#include "common/base/counted.h"
#include "common/base/saturating.h"
#include "common/base/view_index.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

struct Row {
  std::string_view name;  // in the report's arena
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
  // Rows by name (views of the names kept in `names`): ids 1, 2, ... in the order of the rows.
  // The frames are made for their names only, and not kept (LocationNumbers::Reads::kNames).
  ByteArena names;
  ViewIndex index;
  std::vector<Row> rows;
  // Per row, what each frame of each stack adds to: its cum, and the last stack counted in it,
  // side by side and apart from the names (a call graph's stacks hold millions of frames of a
  // hundred thousand rows: one cache line a frame, not two).
  struct Cum {
    int64_t cum = 0;
    size_t last_stack = SIZE_MAX;
  };
  std::vector<Cum> cums;
  auto row_of = [&](const std::string& name) -> size_t {
    bool added = false;
    const std::string_view kept = names.Store(name);  // given back when the name has a row
    const uint64_t id = index.Intern(kept, &added);
    if (added) {
      rows.push_back(Row{kept, 0, 0});
      cums.emplace_back();
    } else {
      names.Unstore(kept);
    }
    return id - 1;
  };
  // Each location's frames as rows.
  LocationNumbers location_rows(LocationNumbers::Order::kInnermostFirst,
                                LocationNumbers::Reads::kNames);
  auto row_of_frame = [&](const Frame& frame) { return static_cast<uint32_t>(row_of(frame.name)); };
  for (size_t e = 0; e < totals.entries().size(); ++e) {
    const StackTotals::Entry& entry = totals.entries()[e];
    const int64_t value = entry.values[v];
    const Stack* stack = totals.defs().stacks.Find(entry.stack_id);
    if (stack == nullptr) continue;
    bool leaf = true;  // the stack's first row, leaf first, takes the flat value
    location_rows.VisitStack(&frames, *stack, LocationNumbers::Walk::kFromTheLeaf, row_of_frame,
                             [&](uint32_t r) {
                               if (leaf) AddSaturating(&rows[r].flat, value);
                               leaf = false;
                               if (cums[r].last_stack == e) return;
                               cums[r].last_stack = e;
                               AddSaturating(&cums[r].cum, value);
                             });
  }
  for (size_t r = 0; r < rows.size(); ++r) rows[r].cum = cums[r].cum;

  // pprof's trimming (internal/report newTrimmedGraph): rows whose |cum| is below min_percent
  // of the sum of flat values are dropped (their flat value with them), as are rows that are
  // all zero; then the sort (|flat|, name, |cum|: pprof's FlatNameOrder, or CumNameOrder) and
  // --nodecount.
  int64_t flat_sum = 0;
  for (const Row& r : rows) AddSaturating(&flat_sum, r.flat);
  const uint64_t cutoff = TrimCutoff(flat_sum, options.min_percent);
  size_t zero_rows = 0;
  for (const Row& r : rows) zero_rows += r.flat == 0 && r.cum == 0;
  const size_t before_trim = rows.size();
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const Row& r) {
                              return (r.flat == 0 && r.cum == 0) || Magnitude(r.cum) < cutoff;
                            }),
             rows.end());
  const size_t dropped = before_trim - rows.size() - zero_rows;
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    const uint64_t a1 = Magnitude(options.sort_by_cum ? a.cum : a.flat);
    const uint64_t b1 = Magnitude(options.sort_by_cum ? b.cum : b.flat);
    if (a1 != b1) return a1 > b1;
    if (a.name != b.name) return a.name < b.name;
    return Magnitude(options.sort_by_cum ? a.flat : a.cum) >
           Magnitude(options.sort_by_cum ? b.flat : b.cum);
  });
  const size_t shown =
      options.node_count == 0 ? rows.size() : std::min(rows.size(), options.node_count);
  int64_t shown_flat = 0;
  for (size_t i = 0; i < shown; ++i) AddSaturating(&shown_flat, rows[i].flat);

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  std::string text = ReportHeader(totals, options,
                                  "Showing nodes accounting for " + fmt(shown_flat) + ", " +
                                      FormatPercent(shown_flat, total) + " of " + fmt(total) +
                                      " total" + SampleCount(totals, options.value_index));
  text += DroppedLine(dropped, "node", "nodes", "cum", totals, options);
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
    AddSaturating(&running, r.flat);
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
