#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "common/base/saturating.h"

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
  bool shown = false;
};

// What trimming leaves of the tree (pprof's nodefraction and nodecount, for a call tree): the
// nodes whose |cum| reaches `cutoff` and whose caller is kept; of them, with `limit`, the
// `limit` largest by |cum| that still form a tree, chosen greedily from the roots down (ties in
// the order nodes are written).
struct Trimmed {
  size_t nonzero = 0;  // nodes with a value
  size_t kept = 0;     // nodes that pass the cutoff
  size_t shown = 0;    // nodes marked shown
};

Trimmed MarkShown(Node* root, uint64_t cutoff, size_t limit) {
  Trimmed result;
  // Count first: every node with a value, and those that pass with their callers.
  std::vector<std::pair<Node*, bool>> pending{{root, true}};
  while (!pending.empty()) {
    auto [node, passes] = pending.back();
    pending.pop_back();
    for (auto& [name, child] : node->children) {
      if (child->cum == 0 && child->flat == 0) continue;
      ++result.nonzero;
      const bool child_passes = passes && Magnitude(child->cum) >= cutoff;
      result.kept += child_passes;
      pending.emplace_back(child.get(), child_passes);
    }
  }
  struct Candidate {
    uint64_t magnitude;
    uint64_t order;
    Node* node;
    bool operator<(const Candidate& o) const {  // the heap's top is the largest, then earliest
      if (magnitude != o.magnitude) return magnitude < o.magnitude;
      return order > o.order;
    }
  };
  std::priority_queue<Candidate> heap;
  uint64_t order = 0;
  auto offer_children = [&](Node* node) {
    for (auto& [name, child] : node->children) {
      if ((child->cum != 0 || child->flat != 0) && Magnitude(child->cum) >= cutoff) {
        heap.push(Candidate{Magnitude(child->cum), order++, child.get()});
      }
    }
  };
  offer_children(root);
  while (!heap.empty() && (limit == 0 || result.shown < limit)) {
    Node* node = heap.top().node;
    heap.pop();
    node->shown = true;
    ++result.shown;
    offer_children(node);
  }
  return result;
}

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
      if (child->shown) children.push_back(child.get());
    }
    // Largest |cum| first; the map already ordered equal values by name.
    std::stable_sort(children.begin(), children.end(), [](const Node* a, const Node* b) {
      return Magnitude(a->cum) > Magnitude(b->cum);
    });
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
    AddSaturating(&root.cum, value);
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
      AddSaturating(&node->cum, value);
    }
    AddSaturating(&node->flat, value);
  }

  const Trimmed trimmed =
      MarkShown(&root, TrimCutoff(root.cum, options.min_percent), options.node_count);
  TreeWriter writer{type.unit, options.raw_values, totals.total_values()[v], "", out};
  writer.text =
      ReportHeader(totals, options,
                   "Showing a call tree accounting for " + writer.Fmt(root.cum) + ", " +
                       FormatPercent(root.cum, writer.total) + " of " + writer.Fmt(writer.total) +
                       " total" + SampleCount(totals, options.value_index));
  writer.text +=
      DroppedLine(trimmed.nonzero - trimmed.kept, "node", "nodes", "cum", totals, options);
  if (trimmed.shown < trimmed.kept) {
    writer.text += "Showing top " + std::to_string(trimmed.shown) + " nodes out of " +
                   std::to_string(trimmed.kept) + "\n";
  }
  char line[128];
  std::snprintf(line, sizeof line, "%10s %7s %10s %7s  %s\n", "cum", "cum%", "flat", "flat%",
                "name");
  writer.text += line;
  writer.WriteChildren(root, 0);
  out->Write(writer.text);
}

}  // namespace proftools
