// prof-text --dot: the call graph in Graphviz DOT, as pprof -dot writes it (internal/graph
// dotgraph.go, internal/report): the same trimming, node order, labels, colours, font sizes,
// tags and legend, so that the two give the same bytes for the same profile. Differences, on
// purpose: names, files and labels holding `"` or `\` are escaped everywhere (pprof leaves some
// raw, which breaks the DOT), times are in UTC, and --raw-values prints exact integers.
#include <cmath>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "common/base/saturating.h"
#include "common/base/units.h"
#include "common/model/frame_kind.h"
#include "common/report/graph/pprof_graph.h"
#include "common/report/graph/pprof_units.h"
#include "common/report/reports.h"

namespace proftools {
namespace {

void ReplaceAll(std::string* text, const std::string& from, const std::string& to) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at)) {
    text->replace(at, from.size(), to);
    at += to.size();
  }
}

// pprof's dotColor: -1 green, 0 grey, 1 red; light for a background.
std::string DotColor(double score, bool background) {
  const double shift = 0.7;
  double saturation = background ? 0.1 : 1.0;
  const double value = background ? 0.93 : 0.7;
  score = std::max(-1.0, std::min(1.0, score));
  if (std::fabs(score) < 0.2) saturation *= std::fabs(score) / 0.2;
  if (score > 0.0) score = std::pow(score, 1.0 - shift);
  if (score < 0.0) score = -std::pow(-score, 1.0 - shift);
  double r, g;
  if (score < 0.0) {
    g = value;
    r = value * (1 + saturation * score);
  } else {
    r = value;
    g = value * (1 - saturation * score);
  }
  const double b = value * (1 - saturation);
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<unsigned>(r * 255.0) & 0xff,
                static_cast<unsigned>(g * 255.0) & 0xff, static_cast<unsigned>(b * 255.0) & 0xff);
  return text;
}

double Ratio(int64_t value, int64_t total) {
  return total == 0 ? 0 : static_cast<double>(value) / static_cast<double>(SaturatingAbs(total));
}

// pprof's "Jan 2, 2006 at 3:04pm (MST)", in UTC.
std::string PprofTime(int64_t nanos) {
  std::tm tm = {};
  if (!UtcCalendarTime(nanos, &tm)) return "";
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char text[96];
  std::snprintf(text, sizeof text, "%s %d, %d at %d:%02d%s (UTC)", kMonths[tm.tm_mon], tm.tm_mday,
                tm.tm_year + 1900, tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12, tm.tm_min,
                tm.tm_hour < 12 ? "am" : "pm");
  return text;
}

class DotWriter {
 public:
  DotWriter(const StackTotals& totals, const ReportOptions& options, const PprofGraph& graph)
      : totals_(totals), options_(options), graph_(graph) {
    const ValueType& type = totals.header().types[options.value_index];
    unit_ = type.unit;
    total_ = totals.total_values()[options.value_index];
    int64_t min_value = 0;
    for (const GraphNode& node : graph.nodes()) {
      int64_t node_min = SaturatingAbs(node.flat);
      if (node_min == 0) node_min = SaturatingAbs(node.cum);
      if (node_min > 0 && (min_value == 0 || node_min < min_value)) min_value = node_min;
    }
    output_unit_ = graph.nodes().empty() ? "minimum" : PprofOutputUnit(min_value, total_, unit_);
    main_mapping_ = MainMapping(totals.header(), totals.defs());
    if (main_mapping_ != nullptr && !main_mapping_->file.empty()) {
      title_ = BaseName(main_mapping_->file);
    }
  }

  std::string Write() {
    out_ = "digraph \"" + EscapeForDot(title_.empty() ? "unnamed" : title_) + "\" {\n";
    out_ += "node [style=filled fillcolor=\"#f8f8f8\"]\n";
    WriteLegend();
    const std::vector<GraphNode>& nodes = graph_.nodes();
    if (!nodes.empty()) {
      double max_flat = static_cast<double>(SaturatingAbs(nodes[0].flat));
      for (const GraphNode& node : nodes) {
        max_flat = std::max(max_flat, static_cast<double>(SaturatingAbs(node.flat)));
      }
      std::vector<bool> has_nodelets(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        WriteNode(nodes[i], i + 1, max_flat);
        has_nodelets[i] = WriteNodelets(nodes[i], i + 1);
      }
      for (size_t e : graph_.SortedEdges()) {
        const GraphEdge& edge = graph_.edges()[e];
        WriteEdge(edge, has_nodelets[edge.src]);
      }
    }
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  // A value as the report prints it: with its unit, which comes from the profile and may hold
  // any byte. Text for the legend, which escapes its lines whole.
  std::string Format(int64_t value) const {
    if (options_.raw_values) return std::to_string(value);
    return PprofScaledLabel(value, unit_, output_unit_);
  }
  // The same inside a quoted DOT string (a label or a tooltip): escaped, so that a unit such as
  // `u" URL="javascript:..."` stays text and adds no attribute.
  std::string DotValue(int64_t value) const { return EscapeForDot(Format(value)); }

  std::string Percent(int64_t value) const { return PprofPercentage(value, total_); }

  std::vector<std::string> Legend() const {
    const ProfileHeader& header = totals_.header();
    std::vector<std::string> labels;
    if (main_mapping_ != nullptr) {
      if (!main_mapping_->file.empty()) labels.push_back("File: " + title_);
      if (!main_mapping_->build_id.empty()) {
        labels.push_back("Build ID: " + main_mapping_->build_id);
      }
    }
    for (const std::string& comment : header.comments) {
      if (comment.empty() || comment[0] != '#') labels.push_back(comment);
    }
    labels.push_back("Type: " + header.types[options_.value_index].type);
    if (header.time_nanos) labels.push_back("Time: " + PprofTime(*header.time_nanos));
    if (header.duration_nanos && *header.duration_nanos != 0) {
      std::string ratio;
      const PprofScaled nanos = PprofScale(total_, unit_, "nanoseconds");
      if (nanos.unit == "ns" && nanos.value != 0) {
        // pprof pads the percentage to six characters here: "( 9.50%)".
        const std::string percent =
            PprofPercentage(static_cast<int64_t>(nanos.value), *header.duration_nanos);
        ratio = "(" + std::string(percent.size() < 6 ? 6 - percent.size() : 0, ' ') + percent + ")";
      }
      labels.push_back(
          "Duration: " + PprofScaledLabel(*header.duration_nanos, "nanoseconds", "auto") +
          ", Total samples = " + Format(total_) + " " + ratio);
    }
    if (!options_.active_filters.empty()) {
      labels.push_back("Active filters:");
      for (std::string filter : options_.active_filters) {
        if (filter.size() > 80) filter = filter.substr(0, 80) + "\xe2\x80\xa6";
        labels.push_back("   " + filter);
      }
    }
    int64_t flat_sum = 0;
    for (const GraphNode& node : graph_.nodes()) flat_sum += node.flat;
    labels.push_back("Showing nodes accounting for " + Format(flat_sum) + ", " + Percent(flat_sum) +
                     " of " + Format(total_) + " total");
    if (total_ != 0) {
      auto dropped = [&](size_t count, const char* what, const char* measure, double fraction) {
        const int64_t cutoff =
            SaturatingAbs(static_cast<int64_t>(static_cast<double>(total_) * fraction));
        labels.push_back("Dropped " + std::to_string(count) + " " + what + (count > 1 ? "s" : "") +
                         " (" + measure + " <= " + Format(cutoff) + ")");
      };
      if (graph_.dropped_nodes() > 0) {
        dropped(graph_.dropped_nodes(), "node", "cum", options_.min_percent / 100);
      }
      if (graph_.dropped_edges() > 0) {
        dropped(graph_.dropped_edges(), "edge", "freq", options_.edge_percent / 100);
      }
      const size_t count = graph_.nodes().size();
      if (count > 0 && count < graph_.nodes_before_count()) {
        labels.push_back("Showing top " + std::to_string(count) + " nodes out of " +
                         std::to_string(graph_.nodes_before_count()));
      }
    }
    labels.push_back("\nSee https://git.io/JfYMW for how to read the graph");
    return labels;
  }

  void WriteLegend() {
    const std::vector<std::string> labels = Legend();
    out_ += "subgraph cluster_L { \"" + EscapeForDot(labels[0]) + "\" [shape=box fontsize=16";
    out_ += " label=\"";
    for (size_t i = 0; i < labels.size(); ++i) {
      out_ += (i ? "\\l" : "") + EscapeForDot(labels[i]);
    }
    out_ += "\\l\"";
    if (!title_.empty()) out_ += " tooltip=\"" + EscapeForDot(title_) + "\"";
    out_ += "] }\n";
  }

  // pprof's multilinePrintableName: the short name broken at `::` and `.`, the file's base name.
  std::string MultilineName(const GraphNodeInfo& info) const {
    GraphNodeInfo copy = info;
    copy.name = EscapeForDot(ShortenFunctionName(copy.name));
    ReplaceAll(&copy.name, "::", "\\n");
    ReplaceAll(&copy.name, ".", "\\n");
    if (!copy.file.empty()) copy.file = EscapeForDot(BaseName(copy.file));
    copy.objfile = EscapeForDot(copy.objfile);
    std::string label;
    for (const std::string& part : copy.NameComponents()) label += part + "\\n";
    return label;
  }

  void WriteNode(const GraphNode& node, size_t id, double max_flat) {
    const GraphNodeInfo& info = graph_.info(node);
    std::string label = MultilineName(info);
    const std::string flat = DotValue(node.flat);
    if (node.flat != 0) {
      label += flat + " (" + Percent(node.flat) + ")";
    } else {
      label += "0";
    }
    std::string cum = flat;
    if (node.cum != node.flat) {
      label += node.flat != 0 ? "\\n" : " ";
      cum = DotValue(node.cum);
      label += "of " + cum + " (" + Percent(node.cum) + ")";
    }
    // Font sizes from 8 to 24, growing with the square root of the flat share.
    int font_size = 8;
    if (max_flat != 0 && node.flat != 0 &&
        static_cast<double>(SaturatingAbs(node.flat)) <= max_flat) {
      font_size += static_cast<int>(
          std::ceil(16.0 * std::sqrt(static_cast<double>(SaturatingAbs(node.flat)) / max_flat)));
    }
    const double score = Ratio(node.cum, total_);
    out_ += "N" + std::to_string(id) + " [label=\"" + label + "\" id=\"node" + std::to_string(id) +
            "\" fontsize=" + std::to_string(font_size) + " shape=box tooltip=\"" +
            EscapeForDot(info.PrintableName()) + " (" + cum + ")\" color=\"" +
            DotColor(score, false) + "\" fillcolor=\"" + DotColor(score, true) + "\"]\n";
  }

  bool WriteNodelets(const GraphNode& node, size_t id) {
    std::string nodelets;
    std::vector<GraphTag> tags;
    for (const auto& [name, tag] : node.label_tags) tags.push_back(tag);
    // A leaf shows its cumulative tags (with those of callees trimmed away), others their flat.
    const bool flat_tags = !node.out.empty();
    SortGraphTags(&tags, flat_tags);
    if (tags.size() > kMaxNodelets) tags.resize(kMaxNodelets);
    const std::string node_id = "N" + std::to_string(id);
    for (size_t i = 0; i < tags.size(); ++i) {
      const GraphTag& tag = tags[i];
      const int64_t w = flat_tags ? tag.flat : tag.cum;
      if (w == 0) continue;
      const std::string weight = DotValue(w);
      const std::string tag_id = node_id + "_" + std::to_string(i);
      nodelets += tag_id + " [label = \"" + tag.name + "\" id=\"" + tag_id +
                  "\" fontsize=8 shape=box3d tooltip=\"" + weight + "\"]\n";
      nodelets += node_id + " -> " + tag_id + " [label=\" " + weight + "\" weight=100 tooltip=\"" +
                  weight + "\" labeltooltip=\"" + weight + "\"]\n";
      auto numeric = node.numeric_tags.find(tag.name);
      if (numeric != node.numeric_tags.end() && !numeric->second.empty()) {
        nodelets += NumericNodelets(numeric->second, flat_tags, tag_id);
      }
    }
    auto unlabeled = node.numeric_tags.find("");
    if (unlabeled != node.numeric_tags.end() && !unlabeled->second.empty()) {
      nodelets += NumericNodelets(unlabeled->second, flat_tags, node_id);
    }
    out_ += nodelets;
    return !nodelets.empty();
  }

  std::string NumericNodelets(const std::map<std::string, GraphTag>& numeric, bool flat_tags,
                              const std::string& source) const {
    std::vector<GraphTag> tags;
    for (const auto& [name, tag] : numeric) tags.push_back(tag);
    std::string nodelets;
    const std::vector<GraphTag> collapsed = CollapseTags(std::move(tags), flat_tags);
    for (size_t j = 0; j < collapsed.size(); ++j) {
      const GraphTag& tag = collapsed[j];
      int64_t w = tag.cum;
      std::string attr = " style=\"dotted\"";
      if (flat_tags || tag.flat == tag.cum) {
        w = tag.flat;
        attr = "";
      }
      if (w == 0) continue;
      const std::string weight = DotValue(w);
      const std::string tag_id = "N" + source + "_" + std::to_string(j);
      nodelets += tag_id + " [label = \"" + tag.name + "\" id=\"" + tag_id +
                  "\" fontsize=8 shape=box3d tooltip=\"" + weight + "\"]\n";
      nodelets += source + " -> " + tag_id + " [label=\" " + weight + "\" weight=100 tooltip=\"" +
                  weight + "\" labeltooltip=\"" + weight + "\"" + attr + "]\n";
    }
    return nodelets;
  }

  // pprof's collapsedTags: at most four numeric tags; the rest join the nearest, as ranges.
  static std::vector<GraphTag> CollapseTags(std::vector<GraphTag> tags, bool flat_tags) {
    SortGraphTags(&tags, flat_tags);
    if (tags.size() <= kMaxNodelets) return tags;
    std::vector<std::vector<const GraphTag*>> groups(kMaxNodelets);
    for (size_t i = 0; i < kMaxNodelets; ++i) groups[i].push_back(&tags[i]);
    auto distance = [](const GraphTag& t, const GraphTag& u) {
      const double v = PprofScale(u.value, u.unit, t.unit).value;
      const double tv = static_cast<double>(t.value);
      return v < tv ? tv - v : v - tv;
    };
    for (size_t i = kMaxNodelets; i < tags.size(); ++i) {
      size_t best = 0;
      double d = distance(tags[i], *groups[0][0]);
      for (size_t g = 1; g < kMaxNodelets; ++g) {
        const double nd = distance(tags[i], *groups[g][0]);
        if (nd < d) {
          best = g;
          d = nd;
        }
      }
      groups[best].push_back(&tags[i]);
    }
    std::vector<GraphTag> out;
    for (const auto& group : groups) {
      GraphTag label;
      if (group.size() == 1) {
        label = *group[0];
        label.name = PprofScaledLabel(group[0]->value, group[0]->unit, "auto");
      } else {
        const GraphTag* min = group[0];
        const GraphTag* max = group[0];
        int64_t flat = min->flat, cum = min->cum;
        for (size_t k = 1; k < group.size(); ++k) {
          const GraphTag* t = group[k];
          if (static_cast<int64_t>(PprofScale(t->value, t->unit, min->unit).value) < min->value) {
            min = t;
          }
          if (static_cast<int64_t>(PprofScale(t->value, t->unit, max->unit).value) > max->value) {
            max = t;
          }
          flat += t->flat;
          cum += t->cum;
        }
        label.name = PprofScaledLabel(min->value, min->unit, "auto") + ".." +
                     PprofScaledLabel(max->value, max->unit, "auto");
        label.flat = flat;
        label.cum = cum;
      }
      out.push_back(label);
    }
    SortGraphTags(&out, flat_tags);
    return out;
  }

  void WriteEdge(const GraphEdge& edge, bool source_has_nodelets) {
    const std::string w = DotValue(edge.weight);
    std::string attr = "label=\" " + w + (edge.inlined ? "\\n (inline)" : "") + "\"";
    if (total_ != 0) {
      const __int128 share100 = static_cast<__int128>(edge.weight) * 100 / total_;
      const __int128 share5 = static_cast<__int128>(edge.weight) * 5 / total_;
      const int weight =
          1 + static_cast<int>(std::min<__int128>(share100 < 0 ? -share100 : share100, 100));
      const int width = 1 + static_cast<int>(std::min<__int128>(share5 < 0 ? -share5 : share5, 5));
      if (weight > 1) attr += " weight=" + std::to_string(weight);
      if (width > 1) attr += " penwidth=" + std::to_string(width);
      attr += " color=\"" + DotColor(Ratio(edge.weight, total_), false) + "\"";
    }
    const GraphNodeInfo& src = graph_.info(graph_.nodes()[edge.src]);
    const GraphNodeInfo& dest = graph_.info(graph_.nodes()[edge.dest]);
    const std::string tooltip = "\"" + EscapeForDot(src.PrintableName()) +
                                (edge.residual ? " ... " : " -> ") +
                                EscapeForDot(dest.PrintableName()) + " (" + w + ")\"";
    attr += " tooltip=" + tooltip + " labeltooltip=" + tooltip;
    if (edge.residual) attr += " style=\"dotted\"";
    if (source_has_nodelets) attr += " minlen=2";
    out_ += "N" + std::to_string(edge.src + 1) + " -> N" + std::to_string(edge.dest + 1) + " [" +
            attr + "]\n";
  }

  static constexpr size_t kMaxNodelets = 4;
  const StackTotals& totals_;
  const ReportOptions& options_;
  const PprofGraph& graph_;
  std::string unit_;
  std::string output_unit_;
  std::string title_;
  const Mapping* main_mapping_ = nullptr;
  int64_t total_ = 0;
  std::string out_;
};

}  // namespace

void WriteDotReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out,
                    PprofGraphStacksShare* share) {
  PprofGraphOptions graph_options;
  graph_options.granularity = options.granularity;
  graph_options.value_index = options.value_index;
  graph_options.node_fraction = options.min_percent / 100;
  graph_options.edge_fraction = options.edge_percent / 100;
  graph_options.node_count = options.node_count;
  const PprofGraph graph(totals, graph_options, share);
  out->Write(DotWriter(totals, options, graph).Write());
}

}  // namespace proftools
