#include "common/gprof/gprof_report.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/io/whole_input.h"
#include "common/model/call_graph.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (true) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) return words;
    const size_t end = std::min(line.find_first_of(" \t", at), line.size());
    words.push_back(line.substr(at, end - at));
    at = end;
  }
}

// A decimal number ("0.08", "100.16"), or false.
bool Number(std::string_view word, double* value) {
  if (word.empty() || word.size() > 30) return false;
  const std::string text(word);
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(*value) && *value >= 0 &&
         (text[0] >= '0' && text[0] <= '9');
}

// Seconds in nanoseconds; past what 64 bits hold (292 years) is no gprof report's.
constexpr double kMaxSeconds = 9.2e9;
int64_t Nanoseconds(double seconds) {
  return seconds * 1e9 >= 9.2e18 ? INT64_MAX : std::llround(seconds * 1e9);
}

bool Integer(std::string_view word, uint64_t* value) {
  if (word.empty() || word.size() > 18) return false;
  *value = 0;
  for (const char c : word) {
    if (c < '0' || c > '9') return false;
    *value = *value * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

// The rest of `line` from its word `index` (names may hold spaces), without " [N]" and
// " <cycle N>" at its end.
std::string_view NameFrom(std::string_view line, const std::vector<std::string_view>& words,
                          size_t index) {
  std::string_view name = line.substr(static_cast<size_t>(words[index].data() - line.data()));
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  if (EndsWith(name, "]")) {
    const size_t open = name.rfind(" [");
    if (open != std::string_view::npos) name = name.substr(0, open);
  }
  if (EndsWith(name, ">")) {
    const size_t open = name.rfind(" <cycle ");
    if (open != std::string_view::npos) name = name.substr(0, open);
  }
  return name;
}

class ReportReader {
 public:
  ReportReader(const std::string& name) : name_(name), graph_(1) {}

  void Read(std::string_view text) {
    enum class Section { kNone, kFlat, kGraph } section = Section::kNone;
    std::string_view primary;  // the call graph block's own function
    bool in_block_after_primary = false;
    uint64_t line_number = 0;
    while (!text.empty()) {
      const size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      ++line_number;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (StartsWith(line, "Flat profile:")) {
        section = Section::kFlat;
        continue;
      }
      if (line.find("Call graph") != std::string_view::npos && Words(line).size() <= 4) {
        section = Section::kGraph;
        continue;
      }
      if (StartsWith(line, "Index by function name")) break;
      if (section == Section::kFlat) {
        FlatLine(line, line_number);
      } else if (section == Section::kGraph) {
        if (StartsWith(line, "-----")) {
          primary = {};
          in_block_after_primary = false;
          continue;
        }
        const std::vector<std::string_view> words = Words(line);
        if (words.empty()) continue;
        if (words[0].size() > 2 && words[0][0] == '[' && words[0].back() == ']') {
          // [N] %time self children [called] name [N]
          if (words.size() < 5) continue;
          primary = NameFrom(line, words, Number3(words) ? 5 : 4);
          if (line.find("<cycle ") != std::string_view::npos)
            in_cycle_.insert(std::string(primary));
          if (line.find("<cycle ") != std::string_view::npos &&
              line.find(" as a whole>") != std::string_view::npos) {
            primary = {};  // the cycle's own block: its members' lines have no counts
          }
          in_block_after_primary = true;
          continue;
        }
        double self = 0, children = 0;
        uint64_t calls = 0, total = 0;
        // A call within a cycle: "COUNT name <cycle N> [index]", no times (gprof does not divide
        // a cycle's time).
        if (in_block_after_primary && !primary.empty() && words.size() >= 3 &&
            Integer(words[0], &calls) && !Number(words[1], &self) &&
            line.find("<cycle ") != std::string_view::npos) {
          const std::string_view callee = NameFrom(line, words, 1);
          if (callee != primary) {
            cycle_arcs_.push_back(Arc{std::string(primary), std::string(callee), calls, 0});
          }
          continue;
        }
        if (in_block_after_primary && !primary.empty() && words.size() >= 4 &&
            Number(words[0], &self) && Number(words[1], &children)) {
          const size_t slash = words[2].find('/');
          if (slash == std::string_view::npos || !Integer(words[2].substr(0, slash), &calls) ||
              !Integer(words[2].substr(slash + 1), &total)) {
            continue;  // a recursive call ("40"), which the flat profile does not count either
          }
          const std::string_view callee = NameFrom(line, words, 3);
          if (callee == primary) continue;
          if (self + children >= kMaxSeconds) {
            throw ProfError(Diagnostic{Rule::kInput, name_, line_number,
                                       "a call graph line of more seconds than 64-bit "
                                       "nanoseconds hold"});
          }
          arcs_.push_back(
              Arc{std::string(primary), std::string(callee), calls, Nanoseconds(self + children)});
        }
      }
    }
  }

  void Emit(const ReadContext& context, ProfileSink* sink, const std::string& input_name) {
    if (functions_.empty() && arcs_.empty() && !context.allow_empty) {
      throw ProfError(input_name, "a gprof report without a flat profile or call graph rows");
    }
    const auto id = [&](const std::string& name) { return graph_.Function("", name, ""); };
    for (const auto& [name, self] : functions_) {
      if (self != 0) graph_.AddSelf(id(name), {self});
    }
    WeighCycleArcs();
    for (const Arc& arc : arcs_)
      graph_.AddCall(id(arc.caller), id(arc.callee), arc.calls, {arc.time});
    ProfileHeader header;
    header.sources.push_back(Source{1, "gprof-report", context.uri, std::nullopt});
    header.types.push_back({"time", "nanoseconds"});
    const bool with_calls = !arcs_.empty();
    if (with_calls) {
      header.types.push_back({"calls", "count"});
      header.default_type = "time";
    }
    if (sample_seconds_ > 0) {
      header.period = Period{{"cpu", "nanoseconds"}, Nanoseconds(sample_seconds_)};
    }
    sink->OnHeader(header);
    Interner interner(sink);
    interner.LimitFrames(context.max_implied_frames(), input_name);
    if (graph_.Emit(&interner, sink, 1, with_calls, {})) {
      context.Warn(input_name, CallGraph::CutWarning("call graph", "time and call count"));
    }
    sink->OnEnd();
  }

 private:
  struct Arc {
    std::string caller, callee;
    uint64_t calls;
    int64_t time;
  };

  // Whether a primary line has a called column: "[4] 30.8 0.00 0.10 40 heavy [4]".
  static bool Number3(const std::vector<std::string_view>& words) {
    uint64_t calls = 0;
    const std::string_view called = words[4];
    const size_t plus = called.find('+');
    return words.size() >= 6 && Integer(called.substr(0, plus), &calls);
  }

  // "%time cumulative self [calls self/call total/call] name"
  void FlatLine(std::string_view line, uint64_t line_number) {
    if (StartsWith(line, "Each sample counts as ")) {
      double seconds = 0;
      const std::vector<std::string_view> words = Words(line);
      if (words.size() >= 5 && Number(words[4], &seconds)) sample_seconds_ = seconds;
      return;
    }
    const std::vector<std::string_view> words = Words(line);
    double percent = 0, cumulative = 0, self = 0;
    if (words.size() < 4 || !Number(words[0], &percent) || !Number(words[1], &cumulative) ||
        !Number(words[2], &self)) {
      return;  // headers, explanations, blank lines
    }
    uint64_t calls = 0;
    double per_call = 0, total_per_call = 0;
    const bool with_calls = words.size() >= 7 && Integer(words[3], &calls) &&
                            Number(words[4], &per_call) && Number(words[5], &total_per_call);
    const std::string name(NameFrom(line, words, with_calls ? 6 : 3));
    if (name.empty()) {
      throw ProfError(
          Diagnostic{Rule::kInput, name_, line_number, "a flat profile row without a name"});
    }
    if (self >= kMaxSeconds) {
      throw ProfError(Diagnostic{Rule::kInput, name_, line_number,
                                 "self seconds past what 64-bit nanoseconds hold"});
    }
    AddSaturating(&functions_[name], Nanoseconds(self));
  }

  // The calls within cycles join the arcs, weighed as gprof2prof weighs them (gprof_codec.cc):
  // the callee's time outside the cycle (its arcs out of it) in proportion to its calls within
  // it, nothing along an arc back to a function a search from the cycle's most called member
  // reaches first, so that the cycle hangs under its callers once.
  void WeighCycleArcs() {
    if (cycle_arcs_.empty()) return;
    std::unordered_map<std::string, double> outside_time;     // by member: its arcs out
    std::unordered_map<std::string, uint64_t> outside_calls;  // by member: calls from outside
    std::unordered_map<std::string, uint64_t> inside_calls;
    std::unordered_map<std::string, std::vector<size_t>> out;  // by member: its cycle arcs
    for (const Arc& arc : arcs_) {
      if (in_cycle_.count(arc.caller) != 0) outside_time[arc.caller] += arc.time;
      if (in_cycle_.count(arc.callee) != 0) outside_calls[arc.callee] += arc.calls;
    }
    for (size_t i = 0; i < cycle_arcs_.size(); ++i) {
      inside_calls[cycle_arcs_[i].callee] += cycle_arcs_[i].calls;
      out[cycle_arcs_[i].caller].push_back(i);
    }
    std::unordered_set<std::string> done;
    std::vector<bool> back(cycle_arcs_.size(), false);
    while (true) {
      // The next search starts at the most called member not searched yet.
      std::string entry;
      for (const auto& member : out) {
        const std::string& name = member.first;
        if (done.count(name) == 0 &&
            (entry.empty() || outside_calls[name] > outside_calls[entry] ||
             (outside_calls[name] == outside_calls[entry] && name < entry))) {
          entry = name;
        }
      }
      if (entry.empty()) break;
      std::unordered_set<std::string> on_path{entry};
      std::vector<std::pair<std::string, size_t>> path{{entry, 0}};
      done.insert(entry);
      while (!path.empty()) {
        const std::string f = path.back().first;
        const std::vector<size_t>& arcs = out[f];
        if (path.back().second < arcs.size()) {
          const size_t a = arcs[path.back().second++];
          const std::string& callee = cycle_arcs_[a].callee;
          if (on_path.count(callee) != 0) {
            back[a] = true;
          } else if (done.insert(callee).second) {
            on_path.insert(callee);
            path.push_back({callee, 0});
          }
          continue;
        }
        on_path.erase(f);
        path.pop_back();
      }
    }
    for (size_t i = 0; i < cycle_arcs_.size(); ++i) {
      Arc arc = cycle_arcs_[i];
      const uint64_t calls = inside_calls[arc.callee];
      arc.time = back[i] || calls == 0
                     ? 0
                     : Nanoseconds(outside_time[arc.callee] / 1e9 * static_cast<double>(arc.calls) /
                                   static_cast<double>(calls));
      arcs_.push_back(std::move(arc));
    }
  }

  const std::string& name_;
  CallGraph graph_;
  std::unordered_set<std::string> in_cycle_;
  std::vector<Arc> cycle_arcs_;
  std::unordered_map<std::string, int64_t> functions_;  // self nanoseconds by name
  std::vector<Arc> arcs_;
  double sample_seconds_ = 0;
};

void ReadGprofReport(Input& input, const ReadContext& context, ProfileSink* sink) {
  WholeInput data;
  ReadWholeInput(input, context.max_input_size, "gprof report", &data);
  ReportReader reader(input.name);
  reader.Read(data.view());
  reader.Emit(context, sink, input.name);
}

}  // namespace

int SniffGprofReport(std::string_view head, bool text) {
  if (!text) return kNotMine;
  const size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return kNotMine;
  head = head.substr(start);
  if (StartsWith(head, "Flat profile:")) return kCertain;
  if ((StartsWith(head, "Call graph") || StartsWith(head, "\t\t     Call graph")) &&
      head.find("granularity:") != std::string_view::npos) {
    return kCertain;
  }
  return kNotMine;
}

const ReaderSpec kGprofReportReader = {
    "gprof-report", "gprof's text report", ReaderShape::kWholeInput,
    nullptr,        SniffGprofReport,      ReadGprofReport,
};

}  // namespace proftools
