#include <algorithm>
#include <cstdio>
#include <map>

#include "common/reports.h"
#include "common/value_format.h"

namespace proftools {
namespace {

constexpr const char* kSeparator =
    "-----------+-------------------------------------------------------\n";

struct Trace {
  std::vector<std::string> lines;  // rendered frames, leaf first
  int64_t value = 0;
};

}  // namespace

void WriteTracesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  const int64_t total = totals.total_values()[v];
  FrameExpander frames(totals.defs(), options.granularity);

  // Stacks whose frames render the same (e.g. the same functions at other lines) are one trace.
  std::map<std::vector<std::string>, int64_t> by_frames;
  std::vector<const Frame*> stack_frames;
  std::vector<std::string> key;
  for (const StackTotals::Entry& entry : totals.entries()) {
    stack_frames.clear();
    frames.StackFrames(entry.stack_id, &stack_frames);
    key.clear();
    for (const Frame* frame : stack_frames) {
      key.push_back(DisplayFrameName(frame->name) + (frame->inlined ? " (inline)" : ""));
    }
    if (key.empty()) key.push_back("(no frames)");
    by_frames[key] += entry.values[v];
  }
  std::vector<Trace> traces;
  traces.reserve(by_frames.size());
  int64_t shown = 0;
  for (auto& [lines, value] : by_frames) {
    traces.push_back(Trace{lines, value});
    shown += value;
  }
  // Largest first; ties in frame order so that output is deterministic.
  std::stable_sort(traces.begin(), traces.end(),
                   [](const Trace& a, const Trace& b) { return a.value > b.value; });

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  std::string text = ReportHeader(
      totals, options,
      "Showing " + std::to_string(traces.size()) + (traces.size() == 1 ? " trace" : " traces") +
          " accounting for " + fmt(shown) + ", " + FormatPercent(shown, total) + " of " +
          fmt(total) + " total (" + std::to_string(totals.total_samples()) +
          (totals.total_samples() == 1 ? " sample)" : " samples)"));
  char value_column[64];
  for (const Trace& trace : traces) {
    text += kSeparator;
    std::snprintf(value_column, sizeof value_column, "%10s   ", fmt(trace.value).c_str());
    for (size_t i = 0; i < trace.lines.size(); ++i) {
      text += i == 0 ? value_column : "             ";
      text += trace.lines[i];
      text += '\n';
    }
    if (text.size() > (size_t{1} << 20)) {
      out->Write(text);
      text.clear();
    }
  }
  if (!traces.empty()) text += kSeparator;
  out->Write(text);
}

}  // namespace proftools
