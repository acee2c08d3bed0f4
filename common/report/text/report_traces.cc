#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/saturating.h"
#include "common/base/string_ids.h"
#include "common/filter/collapse_recursion.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

constexpr const char* kTraceSeparator =
    "-----------+-------------------------------------------------------\n";

// A trace is a sequence of rendered frame lines, leaf first, kept as small ids into one table of
// distinct lines: memory grows with distinct traces times their depth in 4-byte ids, not in
// copies of the frame names.
using LineIds = std::vector<uint32_t>;

struct Trace {
  LineIds lines;
  uint32_t labels = 0;  // its labels' lines (an id in the LineTable; "" when none)
  int64_t value = 0;
};

// Renders each distinct frame once and gives each distinct rendered line an id.
class LineTable {
 public:
  uint32_t IdOf(const Frame* frame) {
    auto [it, added] = by_frame_.try_emplace(frame, 0);
    if (added)
      it->second = Intern(DisplayFrameName(frame->name) + (frame->inlined ? " (inline)" : ""));
    return it->second;
  }
  uint32_t Intern(std::string text) { return texts_.Intern(std::move(text)); }
  const std::string& Text(uint32_t id) const { return texts_.Text(id); }

 private:
  std::unordered_map<const Frame*, uint32_t> by_frame_;
  StringIds texts_;
};

// With --collapse-recursion: `key` (line ids, leaf first) with each directly repeated cycle kept
// once and marked in background 004's notation, read from the bottom (the root) up:
// `a (b c)* d e* f` is the lines f, e*, d, (c, " b)*", a. A line inside a cycle of several
// frames is indented by one column per such cycle, the cycle's first line showing `(`.
LineIds MarkCycles(const LineIds& key, LineTable* table) {
  const std::vector<uint64_t> root_first(key.rbegin(), key.rend());
  std::vector<CollapsedCycle> cycles;
  const std::vector<size_t> kept = CollapseRepeats(root_first, &cycles);
  LineIds marked;
  for (size_t p = kept.size(); p-- > 0;) {
    std::string line;
    std::string closes;
    bool repeated_alone = false;
    for (const CollapsedCycle& cycle : cycles) {  // outer cycles first
      if (cycle.first > p || cycle.last < p) continue;
      if (cycle.first == cycle.last) {
        repeated_alone = true;
        continue;
      }
      line += cycle.last == p ? "(" : " ";
      if (cycle.first == p) closes.insert(0, ")*");
    }
    line += table->Text(static_cast<uint32_t>(root_first[kept[p]]));
    if (repeated_alone) line += '*';
    marked.push_back(table->Intern(line + closes));
  }
  return marked;
}

}  // namespace

void WriteTracesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  const int64_t total = totals.total_values()[v];
  FrameExpander frames(totals.defs(), options.granularity);

  // Stacks whose frames render the same (e.g. the same functions at other lines) are one trace.
  LineTable line_table;
  std::unordered_map<LineIds, size_t, IdSequenceHash> trace_index;
  std::vector<Trace> traces;
  LocationNumbers location_lines;  // each location's frames as lines
  auto line_of = [&](const Frame& frame) { return line_table.IdOf(&frame); };
  LineIds key;
  int64_t shown = 0;
  for (const StackTotals::Entry& entry : totals.entries()) {
    key.clear();
    if (const Stack* stack = totals.defs().stacks.Find(entry.stack_id)) {
      location_lines.AppendStack(&frames, *stack, LocationNumbers::Walk::kFromTheLeaf, line_of,
                                 &key);
    }
    if (key.empty()) key.push_back(line_table.Intern("(no frames)"));
    if (options.mark_cycles) key = MarkCycles(key, &line_table);
    // Samples of one stack with other labels are other traces, as in pprof's -traces.
    const uint32_t labels = line_table.Intern(totals.labels(entry));
    key.push_back(labels);
    auto [it, added] = trace_index.try_emplace(key, traces.size());
    key.pop_back();
    if (added) traces.push_back(Trace{key, labels, 0});
    AddSaturating(&traces[it->second].value, entry.values[v]);
    AddSaturating(&shown, entry.values[v]);
  }
  trace_index.clear();
  // Trimmed as pprof trims nodes (below min_percent of the sum of values, by |value|; traces
  // worth 0 are left out, as pprof leaves out samples worth 0); largest |value| first, ties in
  // the bytewise order of their lines so that output is deterministic; then --nodecount.
  const uint64_t cutoff = TrimCutoff(shown, options.min_percent);
  size_t zero = 0;
  for (const Trace& trace : traces) zero += trace.value == 0;
  const size_t before_trim = traces.size();
  traces.erase(
      std::remove_if(traces.begin(), traces.end(),
                     [&](const Trace& t) { return t.value == 0 || Magnitude(t.value) < cutoff; }),
      traces.end());
  const size_t dropped = before_trim - traces.size() - zero;
  auto lines_before = [&](const LineIds& a, const LineIds& b) {
    return std::lexicographical_compare(
        a.begin(), a.end(), b.begin(), b.end(),
        [&](uint32_t x, uint32_t y) { return line_table.Text(x) < line_table.Text(y); });
  };
  std::sort(traces.begin(), traces.end(), [&](const Trace& a, const Trace& b) {
    if (Magnitude(a.value) != Magnitude(b.value)) return Magnitude(a.value) > Magnitude(b.value);
    if (a.value != b.value) return a.value > b.value;
    if (a.lines != b.lines) return lines_before(a.lines, b.lines);
    return line_table.Text(a.labels) < line_table.Text(b.labels);
  });
  const size_t kept = traces.size();
  if (options.node_count != 0 && traces.size() > options.node_count) {
    traces.resize(options.node_count);
  }
  shown = 0;
  for (const Trace& trace : traces) AddSaturating(&shown, trace.value);

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  std::string text = ReportHeader(
      totals, options,
      "Showing " + std::to_string(traces.size()) + (traces.size() == 1 ? " trace" : " traces") +
          " accounting for " + fmt(shown) + ", " + FormatPercent(shown, total) + " of " +
          fmt(total) + " total" + SampleCount(totals, options.value_index));
  text += DroppedLine(dropped, "trace", "traces", "value", totals, options);
  if (traces.size() < kept) {
    text += "Showing top " + std::to_string(traces.size()) + " traces out of " +
            std::to_string(kept) + "\n";
  }
  char value_column[64];
  for (const Trace& trace : traces) {
    text += kTraceSeparator;
    text += line_table.Text(trace.labels);
    std::snprintf(value_column, sizeof value_column, "%10s   ", fmt(trace.value).c_str());
    for (size_t i = 0; i < trace.lines.size(); ++i) {
      text += i == 0 ? value_column : "             ";
      text += line_table.Text(trace.lines[i]);
      text += '\n';
    }
    WriteWhenLarge(&text, out);
  }
  if (!traces.empty()) text += kTraceSeparator;
  out->Write(text);
}

}  // namespace proftools
