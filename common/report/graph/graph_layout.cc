#include "common/report/graph/graph_layout.h"

#include <map>
#include <memory>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/report/graph/graphviz_library.h"

namespace proftools {
namespace {

// Graphviz reports through a process-wide callback with no user pointer: its text goes here
// while one layout runs (the programs lay out one graph at a time: prof-html from the thread
// that built it, under a lock).
std::string* g_messages = nullptr;

int CollectMessage(char* text) {
  if (g_messages != nullptr && text != nullptr) *g_messages += text;
  return 0;
}

// Routes Graphviz's messages, warnings included, to `messages` for the object's lifetime and
// restores Graphviz's defaults after.
class CapturedMessages {
 public:
  explicit CapturedMessages(std::string* messages)
      : previous_function_(Graphviz().seterrf(CollectMessage)),
        previous_level_(Graphviz().seterr(AGWARN)) {
    g_messages = messages;
  }
  ~CapturedMessages() {
    g_messages = nullptr;
    Graphviz().seterrf(previous_function_);
    Graphviz().seterr(previous_level_);
  }
  CapturedMessages(const CapturedMessages&) = delete;
  CapturedMessages& operator=(const CapturedMessages&) = delete;

 private:
  agusererrf previous_function_;
  agerrlevel_t previous_level_;
};

// The captured text as lines: "Warning: x\nError: y\n" -> {"Warning: x", "Error: y"}.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

ProfError GraphvizError(const std::string& what, const std::string& messages) {
  std::string text = "graphviz: " + what;
  for (const std::string& line : Lines(messages)) text += "; " + line;
  return ProfError("", text);
}

// Graphviz's SVG without links: every `href` and `xlink:href` attribute dropped (a node or edge
// given a URL in its DOT would be a link; nothing we draw has one, so any is a profile's string
// that escaped into an attribute). Graphviz writes a quote inside a value as &quot;: a value
// ends at the next quote.
std::string WithoutLinks(const std::string& svg) {
  std::string out;
  out.reserve(svg.size());
  size_t copied = 0;
  for (size_t at = svg.find("href=\""); at != std::string::npos; at = svg.find("href=\"", at)) {
    size_t start = at;
    if (start >= 6 && svg.compare(start - 6, 6, "xlink:") == 0) start -= 6;
    const size_t value_end = svg.find('"', at + 6);
    if (start == 0 || svg[start - 1] != ' ' || value_end == std::string::npos) {
      at += 6;
      continue;
    }
    out.append(svg, copied, start - 1 - copied);  // the space before the attribute goes too
    copied = value_end + 1;
    at = copied;
  }
  out.append(svg, copied, std::string::npos);
  return out;
}

struct ContextDeleter {
  void operator()(GVC_t* context) const { Graphviz().free_context(context); }
};
struct GraphDeleter {
  void operator()(Agraph_t* graph) const { Graphviz().close(graph); }
};

}  // namespace

GraphLayout LayoutDotToSvg(const std::string& dot, size_t max_nodes) {
  // A first count without Graphviz: its parser takes seconds over the hundreds of thousands of
  // edges of an untrimmed large profile, only to be refused. Lines holding " -> " bound the edge
  // statements of a DOT written a statement a line (as report_dot writes it) from above; twice
  // the bound leaves room for names that hold the arrow.
  size_t arrow_lines = 0;
  for (size_t at = dot.find(" -> "); at != std::string::npos;) {
    ++arrow_lines;
    const size_t end = dot.find('\n', at);
    at = end == std::string::npos ? end : dot.find(" -> ", end);
  }
  if (arrow_lines > 2 * max_nodes) {
    throw UsageError("the graph has about " + std::to_string(arrow_lines) +
                     " edges, more than the " + std::to_string(max_nodes) +
                     " that are laid out (it would take minutes and be unreadable): keep fewer "
                     "with --nodecount, --min-percent or --edge-percent");
  }
  std::string messages;
  GraphLayout layout;
  {
    const GraphvizLibrary& gv = Graphviz();
    CapturedMessages capture(&messages);
    // With Graphviz's installed plugins (the dot layout, the SVG renderer, its text layout), as
    // the `dot` program uses them.
    std::unique_ptr<GVC_t, ContextDeleter> context(gv.context());
    if (!context) throw GraphvizError("cannot start", messages);
    std::unique_ptr<Agraph_t, GraphDeleter> graph(gv.memread(dot.c_str()));
    if (!graph) throw GraphvizError("the DOT was rejected", messages);
    layout.nodes = static_cast<size_t>(gv.nnodes(graph.get()));
    // Edges too: dot's time grows faster than the edges' count (measured on a dense generated
    // graph: 954 edges 0.55 s, 1764 edges 14.5 s, 4000 edges over 20 minutes).
    const size_t edges = static_cast<size_t>(gv.nedges(graph.get()));
    if (edges > max_nodes) {
      throw UsageError("the graph has " + std::to_string(edges) + " edges, more than the " +
                       std::to_string(max_nodes) +
                       " that are laid out (it would take minutes and be unreadable): keep fewer "
                       "with --nodecount, --min-percent or --edge-percent");
    }
    if (layout.nodes > max_nodes) {
      throw UsageError("the graph has " + std::to_string(layout.nodes) + " nodes, more than the " +
                       std::to_string(max_nodes) +
                       " that are laid out (it would take minutes and be unreadable): keep fewer "
                       "with --nodecount or --min-percent");
    }
    if (gv.layout(context.get(), graph.get(), "dot") != 0) {
      throw GraphvizError("the dot layout failed", messages);
    }
    char* data = nullptr;
    unsigned int length = 0;
    const int rendered = gv.render_data(context.get(), graph.get(), "svg", &data, &length);
    if (data != nullptr) {
      layout.svg = WithoutLinks(std::string(data, length));
      gv.free_render_data(data);
    }
    gv.free_layout(context.get(), graph.get());
    if (rendered != 0 || layout.svg.empty()) {
      throw GraphvizError("rendering to SVG failed", messages);
    }
  }
  // Each distinct message once, in the order first seen, with its count.
  std::vector<std::pair<std::string, size_t>> seen;
  std::map<std::string, size_t> index;
  for (const std::string& line : Lines(messages)) {
    auto [it, inserted] = index.emplace(line, seen.size());
    if (inserted) seen.emplace_back(line, 0);
    ++seen[it->second].second;
  }
  for (const auto& [line, count] : seen) {
    layout.warnings.push_back("graphviz: " + line +
                              (count > 1 ? " (" + std::to_string(count) + " times)" : ""));
  }
  return layout;
}

}  // namespace proftools
