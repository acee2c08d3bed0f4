#include <algorithm>
#include <cstdio>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/flat_index.h"
#include "common/base/saturating.h"
#include "common/base/string_ids.h"

#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// The call tree: a node a frame reached by one path from the root (node 0), in one array.
struct Tree {
  struct Node {
    int64_t cum = 0;      // samples passing through this node
    int64_t flat = 0;     // samples whose leaf is this node
    uint32_t name = 0;    // index in names
    uint32_t parent = 0;  // the node it was made under (the root's is itself)
    bool shown = false;
  };
  std::vector<Node> nodes = std::vector<Node>(1);
  StringIds names;  // as written: display form, " (inline)" for inlined frames
  // Each node's children in their names' bytewise order: child_list[child_start[n] ..
  // child_start[n + 1]).
  std::vector<uint32_t> child_start, child_list;

  struct Children {
    const uint32_t* first;
    const uint32_t* last;
    const uint32_t* begin() const { return first; }
    const uint32_t* end() const { return last; }
  };
  Children children(uint32_t node) const {
    return {child_list.data() + child_start[node], child_list.data() + child_start[node + 1]};
  }
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

Trimmed MarkShown(Tree* tree, uint64_t cutoff, size_t limit) {
  Trimmed result;
  std::vector<Tree::Node>& nodes = tree->nodes;
  // Count first: every node with a value, and those that pass with their callers.
  std::vector<std::pair<uint32_t, bool>> pending{{0, true}};
  while (!pending.empty()) {
    auto [node, passes] = pending.back();
    pending.pop_back();
    for (uint32_t child : tree->children(node)) {
      if (nodes[child].cum == 0 && nodes[child].flat == 0) continue;
      ++result.nonzero;
      const bool child_passes = passes && Magnitude(nodes[child].cum) >= cutoff;
      result.kept += child_passes;
      pending.emplace_back(child, child_passes);
    }
  }
  struct Candidate {
    uint64_t magnitude;
    uint64_t order;
    uint32_t node;
    bool operator<(const Candidate& o) const {  // the heap's top is the largest, then earliest
      if (magnitude != o.magnitude) return magnitude < o.magnitude;
      return order > o.order;
    }
  };
  std::priority_queue<Candidate> heap;
  uint64_t order = 0;
  auto offer_children = [&](uint32_t node) {
    for (uint32_t child : tree->children(node)) {
      if ((nodes[child].cum != 0 || nodes[child].flat != 0) &&
          Magnitude(nodes[child].cum) >= cutoff) {
        heap.push(Candidate{Magnitude(nodes[child].cum), order++, child});
      }
    }
  };
  offer_children(0);
  while (!heap.empty() && (limit == 0 || result.shown < limit)) {
    const uint32_t node = heap.top().node;
    heap.pop();
    nodes[node].shown = true;
    ++result.shown;
    offer_children(node);
  }
  return result;
}

// Levels indented by two spaces each; deeper nodes are indented as this level and carry their
// depth, "[DEPTH] NAME": a stack a million frames deep with --nodecount 0 would otherwise be a
// terabyte of spaces (the output grows with the square of the depth).
constexpr int kIndentedLevels = 64;

struct TreeWriter {
  const Tree& tree;
  const std::string& unit;
  bool raw;
  int64_t total;
  std::string text;
  ByteSink* out;

  std::string Fmt(int64_t value) const { return FormatValue(value, unit, raw); }

  // The shown nodes under the root, depth first, each node's shown children largest |cum|
  // first (ties in name order). Without recursion: a call tree can be a million frames deep.
  void WriteAll() {
    std::vector<std::pair<uint32_t, int>> pending;  // node, depth
    PushChildren(0, 0, &pending);
    char line[128];
    while (!pending.empty()) {
      const auto [index, depth] = pending.back();
      pending.pop_back();
      const Tree::Node& node = tree.nodes[index];
      std::snprintf(line, sizeof line, "%10s %7s %10s %7s  ", Fmt(node.cum).c_str(),
                    FormatPercent(node.cum, total).c_str(), Fmt(node.flat).c_str(),
                    FormatPercent(node.flat, total).c_str());
      text += line;
      text.append(2 * static_cast<size_t>(std::min(depth, kIndentedLevels)), ' ');
      if (depth > kIndentedLevels) text += "[" + std::to_string(depth) + "] ";
      text += tree.names.Text(node.name);
      text += '\n';
      WriteWhenLarge(&text, out);
      PushChildren(index, depth + 1, &pending);
    }
  }

  void PushChildren(uint32_t node, int depth, std::vector<std::pair<uint32_t, int>>* pending) {
    std::vector<uint32_t> children;
    for (uint32_t child : tree.children(node)) {
      if (tree.nodes[child].shown) children.push_back(child);
    }
    // Largest |cum| first; the children already come in name order.
    std::stable_sort(children.begin(), children.end(), [&](uint32_t a, uint32_t b) {
      return Magnitude(tree.nodes[a].cum) > Magnitude(tree.nodes[b].cum);
    });
    for (auto child = children.rbegin(); child != children.rend(); ++child) {
      pending->emplace_back(*child, depth);
    }
  }
};

}  // namespace

void WriteTreeReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  FrameExpander frames(totals.defs(), options.granularity);

  // Each location's frames as name ids, made once a location; a node's child by (node, name)
  // in one table: no string made or compared a frame of every stack.
  Tree tree;
  LocationNumbers location_names(LocationNumbers::Order::kOutermostFirst,
                                 LocationNumbers::Reads::kNames);
  auto name_of = [&](const Frame& frame) {
    return tree.names.Intern(DisplayFrameName(frame.name) + (frame.inlined ? " (inline)" : ""));
  };
  const uint32_t no_frames = tree.names.Intern(DisplayFrameName("(no frames)"));
  FlatIndex child_of;  // node << 32 | name -> child node
  std::vector<uint32_t> path;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const int64_t value = entry.values[v];
    path.clear();
    if (const Stack* stack = totals.defs().stacks.Find(entry.stack_id)) {
      location_names.AppendStack(&frames, *stack, LocationNumbers::Walk::kFromTheRoot, name_of,
                                 &path);
    }
    if (path.empty()) path.push_back(no_frames);
    uint32_t node = 0;
    AddSaturating(&tree.nodes[0].cum, value);
    for (uint32_t name : path) {
      if (tree.nodes.size() >= UINT32_MAX) throw ProfError("", "a call tree of 4 billion nodes");
      bool added = false;
      const uint32_t child = child_of.FindOrAdd((uint64_t{node} << 32) | name,
                                                static_cast<uint32_t>(tree.nodes.size()), &added);
      if (added) {
        tree.nodes.emplace_back();
        tree.nodes.back().name = name;
        tree.nodes.back().parent = node;
      }
      node = child;
      AddSaturating(&tree.nodes[node].cum, value);
    }
    AddSaturating(&tree.nodes[node].flat, value);
  }
  child_of.Clear();
  // Children by parent, then each node's in their names' bytewise order (names ranked once).
  const size_t n = tree.nodes.size();
  tree.child_start.assign(n + 1, 0);
  for (size_t i = 1; i < n; ++i) ++tree.child_start[tree.nodes[i].parent + 1];
  for (size_t i = 0; i < n; ++i) tree.child_start[i + 1] += tree.child_start[i];
  tree.child_list.resize(n - 1);
  {
    std::vector<uint32_t> next(tree.child_start.begin(), tree.child_start.end() - 1);
    for (size_t i = 1; i < n; ++i) {
      tree.child_list[next[tree.nodes[i].parent]++] = static_cast<uint32_t>(i);
    }
  }
  std::vector<uint32_t> by_name(tree.names.size()), rank(tree.names.size());
  for (uint32_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(),
            [&](uint32_t a, uint32_t b) { return tree.names.Text(a) < tree.names.Text(b); });
  for (uint32_t r = 0; r < by_name.size(); ++r) rank[by_name[r]] = r;
  for (size_t i = 0; i < n; ++i) {
    std::sort(tree.child_list.begin() + tree.child_start[i],
              tree.child_list.begin() + tree.child_start[i + 1], [&](uint32_t a, uint32_t b) {
                return rank[tree.nodes[a].name] < rank[tree.nodes[b].name];
              });
  }

  const Trimmed trimmed =
      MarkShown(&tree, TrimCutoff(tree.nodes[0].cum, options.min_percent), options.node_count);
  TreeWriter writer{tree, type.unit, options.raw_values, totals.total_values()[v], "", out};
  const int64_t all = tree.nodes[0].cum;
  writer.text =
      ReportHeader(totals, options,
                   "Showing a call tree accounting for " + writer.Fmt(all) + ", " +
                       FormatPercent(all, writer.total) + " of " + writer.Fmt(writer.total) +
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
  writer.WriteAll();
  out->Write(writer.text);
}

}  // namespace proftools
