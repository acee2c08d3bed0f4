#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// One node of the call tree: a frame reached by one path from a root.
struct Node {
  std::string name;
  int64_t cum = 0;   // samples passing through this node
  int64_t flat = 0;  // samples whose leaf is this node
  std::map<std::string, std::unique_ptr<Node>> children;
};

struct TreeWriter {
  const std::string& unit;
  bool raw;
  int64_t total;
  std::string text;
  ByteSink* out;

  std::string Fmt(int64_t value) const { return FormatValue(value, unit, raw); }

  void Write(const Node& node, int depth) {
    char line[128];
    std::snprintf(line, sizeof line, "%10s %7s %10s %7s  ", Fmt(node.cum).c_str(),
                  FormatPercent(node.cum, total).c_str(), Fmt(node.flat).c_str(),
                  FormatPercent(node.flat, total).c_str());
    text += line;
    text.append(2 * static_cast<size_t>(depth), ' ');
    text += node.name;
    text += '\n';
    WriteWhenLarge(&text, out);
    WriteChildren(node, depth + 1);
  }

  void WriteChildren(const Node& node, int depth) {
    std::vector<const Node*> children;
    for (const auto& [name, child] : node.children) {
      if (child->cum != 0 || child->flat != 0) children.push_back(child.get());
    }
    // Largest first; the map already ordered equal values by name.
    std::stable_sort(children.begin(), children.end(),
                     [](const Node* a, const Node* b) { return a->cum > b->cum; });
    for (const Node* child : children) Write(*child, depth);
  }
};

}  // namespace

void WriteTreeReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  FrameExpander frames(totals.defs(), options.granularity);

  Node root;
  std::vector<const Frame*> stack_frames;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const int64_t value = entry.values[v];
    stack_frames.clear();
    frames.StackFrames(entry.stack_id, &stack_frames);
    Node* node = &root;
    root.cum += value;
    static const Frame kNoFrames{"(no frames)", false, FrameKind::kUser, ""};
    if (stack_frames.empty()) stack_frames.push_back(&kNoFrames);
    for (auto it = stack_frames.rbegin(); it != stack_frames.rend(); ++it) {
      const std::string name = DisplayFrameName((*it)->name) + ((*it)->inlined ? " (inline)" : "");
      std::unique_ptr<Node>& child = node->children[name];
      if (!child) {
        child = std::make_unique<Node>();
        child->name = name;
      }
      node = child.get();
      node->cum += value;
    }
    node->flat += value;
  }

  TreeWriter writer{type.unit, options.raw_values, totals.total_values()[v], "", out};
  writer.text =
      ReportHeader(totals, options,
                   "Showing a call tree accounting for " + writer.Fmt(root.cum) + ", " +
                       FormatPercent(root.cum, writer.total) + " of " + writer.Fmt(writer.total) +
                       " total (" + std::to_string(totals.total_samples()) +
                       (totals.total_samples() == 1 ? " sample)" : " samples)"));
  char line[128];
  std::snprintf(line, sizeof line, "%10s %7s %10s %7s  %s\n", "cum", "cum%", "flat", "flat%",
                "name");
  writer.text += line;
  writer.WriteChildren(root, 0);
  out->Write(writer.text);
}

}  // namespace proftools
