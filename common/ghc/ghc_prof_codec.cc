#include "common/ghc/ghc_prof_codec.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/io/byte_stream.h"
#include "common/io/whole_input.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

struct CostCentre {
  std::string label, module, src;
};

// A cost-centre stack: its cost centre, its parent stack, its individual values.
struct StackNode {
  uint64_t cost_centre = 0;  // JSON: the cost centre's id; text: an index of `centres`
  int64_t parent = -1;
  uint64_t entries = 0, ticks = 0, alloc = 0;
  uint64_t byte = 0;  // JSON: where it starts, for messages
};

// What either form of the report holds.
struct GhcProfile {
  std::string program, total_time;
  uint64_t total_ticks = 0, tick_interval_us = 0, total_alloc = 0;
  std::unordered_map<uint64_t, CostCentre> centres;
  std::vector<StackNode> nodes;  // parents before their children
  bool estimated = false;        // a -p report's ticks and bytes, from its percentages
};

// "Work.hs:5:1-64", "Work.hs:(14,1)-(17,40)": the file and first line; "<entire-module>" and
// the like: neither.
void SourceLocation(const std::string& src, std::string* file, int64_t* line) {
  file->clear();
  *line = 0;
  if (src.empty() || src[0] == '<') return;
  const size_t colon = src.rfind(".hs:") != std::string::npos    ? src.rfind(".hs:") + 3
                       : src.rfind(".lhs:") != std::string::npos ? src.rfind(".lhs:") + 4
                                                                 : src.find(':');
  if (colon == std::string::npos) {
    *file = src;
    return;
  }
  *file = src.substr(0, colon);
  size_t at = colon + 1;
  if (at < src.size() && src[at] == '(') ++at;
  int64_t value = 0;
  size_t end = at;
  while (end < src.size() && src[end] >= '0' && src[end] <= '9' && end - at < 9) ++end;
  if (end > at && ParseInt(std::string_view(src).substr(at, end - at), &value)) *line = value;
}

class JsonProfile {
 public:
  explicit JsonProfile(JsonDocument* json) : json_(*json) {}

  GhcProfile Read() {
    ondemand::object object;
    if (const auto error = json_.doc().get_object().get(object)) {
      json_.Fail(error, "the file", "an object");
    }
    bool has_profile = false;
    ForEachField(json_, object, "the file", [&](std::string_view key, JsonValue value) {
      if (key == "program") {
        profile_.program = std::string(json_.String(std::move(value), "program"));
      } else if (key == "total_time") {
        profile_.total_time = json_.Token(std::move(value), "total_time");
      } else if (key == "total_ticks") {
        profile_.total_ticks = json_.Unsigned(std::move(value), "total_ticks");
      } else if (key == "tick_interval") {
        profile_.tick_interval_us = json_.Unsigned(std::move(value), "tick_interval");
      } else if (key == "total_alloc") {
        profile_.total_alloc = json_.Unsigned(std::move(value), "total_alloc");
      } else if (key == "cost_centres") {
        for (auto element : json_.Array(std::move(value), "cost_centres"))
          ReadCentre(std::move(element));
      } else if (key == "profile") {
        has_profile = true;
        ReadNode(std::move(value), -1, 0);
      }
    });
    if (!has_profile) json_.Fail("no profile: not GHC's JSON profile", 1);
    return std::move(profile_);
  }

 private:
  void ReadCentre(JsonValue value) {
    std::optional<uint64_t> id;
    CostCentre centre;
    ForEachField(json_, json_.Object(std::move(value), "cost_centres[]"), "cost_centres[]",
                 [&](std::string_view key, JsonValue field) {
                   if (key == "id") {
                     id = json_.Unsigned(std::move(field), "id");
                   } else if (key == "label") {
                     centre.label = std::string(json_.String(std::move(field), "label"));
                   } else if (key == "module") {
                     centre.module = std::string(json_.String(std::move(field), "module"));
                   } else if (key == "src_loc") {
                     centre.src = std::string(json_.String(std::move(field), "src_loc"));
                   }
                 });
    if (!id) json_.Fail("a cost centre without an id");
    if (!profile_.centres.emplace(*id, std::move(centre)).second) {
      json_.Fail("cost centre " + std::to_string(*id) + " is given twice");
    }
  }

  // simdjson's depth limit bounds the recursion.
  void ReadNode(JsonValue value, int64_t parent, int depth) {
    const size_t index = profile_.nodes.size();
    profile_.nodes.emplace_back();
    profile_.nodes[index].parent = parent;
    profile_.nodes[index].byte = json_.Byte();
    bool has_id = false;
    ForEachField(json_, json_.Object(std::move(value), "profile"), "profile",
                 [&](std::string_view key, JsonValue field) {
                   if (key == "id") {
                     profile_.nodes[index].cost_centre = json_.Unsigned(std::move(field), "id");
                     has_id = true;
                   } else if (key == "entries") {
                     profile_.nodes[index].entries = json_.Unsigned(std::move(field), "entries");
                   } else if (key == "ticks") {
                     profile_.nodes[index].ticks = json_.Unsigned(std::move(field), "ticks");
                   } else if (key == "alloc") {
                     profile_.nodes[index].alloc = json_.Unsigned(std::move(field), "alloc");
                   } else if (key == "children") {
                     for (auto child : json_.Array(std::move(field), "children")) {
                       ReadNode(std::move(child), static_cast<int64_t>(index), depth + 1);
                     }
                   }
                 });
    if (!has_id) json_.Fail("a profile node without an id");
  }

  JsonDocument& json_;
  GhcProfile profile_;
};

// The text report (+RTS -p, -P): its header's totals, then the cost-centre tree, one row a
// stack, indented one space a level.
class TextProfile {
 public:
  TextProfile(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  GhcProfile Read() {
    LineReader lines(text_, 0);
    std::string_view line;
    bool in_tree = false;
    size_t module_column = 0, src_column = 0, numbers = 0;
    bool has_src = false, exact = false;
    std::vector<int64_t> path;  // the stack of each depth's last row
    while (lines.Next(&line)) {
      line_ = lines.line_number();
      if (!in_tree) {
        Header(line);
        if (Contains(line, "COST CENTRE") && Contains(line, "no.") && Contains(line, "entries")) {
          in_tree = true;
          module_column = line.find("MODULE");
          src_column = line.find("SRC");
          has_src = src_column != std::string_view::npos;
          exact = Contains(line, "ticks") && Contains(line, "bytes");
          numbers = exact ? 8 : 6;
          if (module_column == std::string_view::npos) Fail("the tree's header has no MODULE");
          if (!has_src) src_column = std::string_view::npos;
        }
        continue;
      }
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      Row(line, module_column, src_column, numbers, exact, &path);
    }
    if (!in_tree) Fail("no cost-centre tree (its header COST CENTRE ... no. entries)");
    profile_.estimated = !exact;
    if (profile_.tick_interval_us == 0) profile_.tick_interval_us = 1000;
    return std::move(profile_);
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw ProfError(Diagnostic{Rule::kInput, name_, line_, what});
  }

  // "total time  =        0.25 secs   (248 ticks @ 1000 us, 1 processor)",
  // "total alloc = 805,045,024 bytes  (excludes profiling overheads)"; the program's line.
  void Header(std::string_view line) {
    const std::string_view trimmed = Trim(line);
    if (StartsWith(trimmed, "total time")) {
      const size_t equals = trimmed.find('=');
      const size_t secs = trimmed.find(" secs");
      if (equals != std::string_view::npos && secs != std::string_view::npos && secs > equals) {
        profile_.total_time = std::string(Trim(trimmed.substr(equals + 1, secs - equals - 1)));
      }
      const size_t open = trimmed.find('(');
      const size_t at = trimmed.find(" ticks @ ");
      if (open != std::string_view::npos && at != std::string_view::npos && at > open) {
        profile_.total_ticks = Number(trimmed.substr(open + 1, at - open - 1));
        const std::string_view rest = trimmed.substr(at + 9);
        profile_.tick_interval_us = Number(rest.substr(0, rest.find(' ')));
      }
    } else if (StartsWith(trimmed, "total alloc")) {
      const size_t equals = trimmed.find('=');
      const size_t bytes = trimmed.find(" bytes");
      if (equals != std::string_view::npos && bytes != std::string_view::npos && bytes > equals) {
        std::string digits;
        for (char c : trimmed.substr(equals + 1, bytes - equals - 1)) {
          if (c != ',' && c != ' ') digits += c;
        }
        profile_.total_alloc = Number(digits);
      }
    } else if (profile_.program.empty() && line_ == 3 && !trimmed.empty()) {
      profile_.program = std::string(trimmed.substr(0, trimmed.find(' ')));
    }
  }

  uint64_t Number(std::string_view text) const {
    uint64_t value = 0;
    if (!ParseId(text, &value)) Fail("not a count: " + Printable(text.substr(0, 40)));
    return value;
  }
  double Percent(std::string_view text) const {
    double value = 0;
    if (!ParseDouble(text, &value) || !(value >= 0 && value <= 1000)) {
      Fail("not a percentage: " + Printable(text.substr(0, 40)));
    }
    return value;
  }
  static bool ParseDouble(std::string_view text, double* out) {
    if (text.empty() || text.size() > 20) return false;
    const std::string copy(text);
    char* end = nullptr;
    *out = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && std::isfinite(*out);
  }

  void Row(std::string_view line, size_t module_column, size_t src_column, size_t numbers,
           bool exact, std::vector<int64_t>* path) {
    // The numbers from the right.
    std::vector<std::string_view> words;
    size_t end = line.size();
    while (words.size() < numbers) {
      while (end > 0 && line[end - 1] == ' ') --end;
      size_t start = end;
      while (start > 0 && line[start - 1] != ' ') --start;
      if (start == end) Fail("a row with fewer than " + std::to_string(numbers) + " numbers");
      words.insert(words.begin(), line.substr(start, end - start));
      end = start;
    }
    const std::string_view text = line.substr(0, end);
    const size_t depth = text.find_first_not_of(' ');
    if (depth == std::string_view::npos) Fail("a row without a cost centre");
    CostCentre centre;
    if (module_column < text.size() && text[module_column - 1] == ' ' && depth < module_column) {
      centre.label = std::string(Trim(text.substr(depth, module_column - depth)));
      const size_t module_end = src_column == std::string_view::npos ? text.size() : src_column;
      centre.module = std::string(Trim(text.substr(module_column, module_end - module_column)));
      if (src_column != std::string_view::npos && src_column < text.size()) {
        centre.src = std::string(Trim(text.substr(src_column)));
      }
    } else {  // a row wider than the header's columns: by words
      std::string_view rest = Trim(text);
      const size_t a = rest.find(' ');
      centre.label = std::string(rest.substr(0, a));
      rest = a == std::string_view::npos ? std::string_view() : Trim(rest.substr(a));
      const size_t b = rest.find(' ');
      centre.module = std::string(rest.substr(0, b));
      if (src_column != std::string_view::npos && b != std::string_view::npos) {
        centre.src = std::string(Trim(rest.substr(b)));
      }
    }
    if (centre.label.empty()) Fail("a row without a cost centre");
    StackNode node;
    node.entries = Number(words[1]);
    if (exact) {
      node.ticks = Number(words[6]);
      node.alloc = Number(words[7]);
    } else {
      node.ticks = static_cast<uint64_t>(
          std::llround(Percent(words[2]) * static_cast<double>(profile_.total_ticks) / 100));
      node.alloc = static_cast<uint64_t>(
          std::llround(Percent(words[3]) * static_cast<double>(profile_.total_alloc) / 100));
    }
    const std::string key = centre.label + '\0' + centre.module + '\0' + centre.src;
    const auto [it, added] = centre_of_.emplace(key, profile_.centres.size());
    if (added) profile_.centres.emplace(it->second, std::move(centre));
    node.cost_centre = it->second;
    if (depth > path->size()) Fail("a row indented deeper than one level below the row above");
    path->resize(depth);
    node.parent = depth == 0 ? -1 : (*path)[depth - 1];
    path->push_back(static_cast<int64_t>(profile_.nodes.size()));
    profile_.nodes.push_back(node);
  }

  std::string_view text_;
  const std::string& name_;
  uint64_t line_ = 0;
  GhcProfile profile_;
  std::unordered_map<std::string, uint64_t> centre_of_;
};

void Emit(const GhcProfile& profile, const std::string& name, const ReadContext& context,
          ProfileSink* sink) {
  if (profile.nodes.empty() && !context.allow_empty) {
    throw ProfError(name, "a GHC profile without cost-centre stacks");
  }
  const uint64_t interval_us = profile.tick_interval_us == 0 ? 1000 : profile.tick_interval_us;
  int64_t tick_ns = static_cast<int64_t>(std::min<uint64_t>(interval_us, INT64_MAX / 1000));
  tick_ns *= 1000;
  ProfileHeader header;
  header.sources.push_back(Source{1, "ghc-prof", context.uri, std::nullopt});
  const auto meta = [&](const char* key, const std::string& value) {
    if (!value.empty()) header.meta.push_back({std::string("ghc.") + key, value});
  };
  meta("program", profile.program);
  meta("total_time", profile.total_time);
  meta("total_ticks", std::to_string(profile.total_ticks));
  meta("total_alloc", std::to_string(profile.total_alloc));
  header.types = {{"cpu", "nanoseconds"}, {"alloc", "bytes"}, {"entries", "count"}};
  header.default_type = "cpu";
  header.period = Period{{"cpu", "nanoseconds"}, tick_ns};
  sink->OnHeader(header);
  if (profile.estimated) {
    context.Warn(name,
                 "a report of percentages (+RTS -p): each stack's ticks and bytes are estimated "
                 "from its %time and %alloc, one decimal of the totals (+RTS -P or -pj give them "
                 "exactly)");
  }
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), name);
  std::unordered_map<uint64_t, uint64_t> location_of;  // by cost centre
  const auto location = [&](const StackNode& node) {
    const uint64_t id = node.cost_centre;
    const auto it = location_of.find(id);
    if (it != location_of.end()) return it->second;
    const auto centre = profile.centres.find(id);
    if (centre == profile.centres.end()) {
      throw ProfError(name, "byte " + std::to_string(node.byte) +
                                ": the profile names cost centre " + std::to_string(id) +
                                ", which cost_centres lacks");
    }
    Function function;
    function.name = centre->second.module.empty()
                        ? centre->second.label
                        : centre->second.module + "." + centre->second.label;
    int64_t line = 0;
    SourceLocation(centre->second.src, &function.file, &line);
    function.start_line = line;
    Location loc;
    loc.lines.push_back(Line{interner.Function(function), line, 0});
    return location_of[id] = interner.Location(loc);
  };
  std::vector<uint64_t> stack;
  Sample sample;
  sample.source_id = 1;
  for (const StackNode& node : profile.nodes) {
    if (node.ticks == 0 && node.alloc == 0 && node.entries == 0) continue;
    stack.clear();
    for (int64_t at = static_cast<int64_t>(&node - profile.nodes.data()); at >= 0;
         at = profile.nodes[static_cast<size_t>(at)].parent) {
      stack.push_back(location(profile.nodes[static_cast<size_t>(at)]));
    }
    sample.stack_id = interner.Stack(stack);
    int64_t cpu = static_cast<int64_t>(std::min<uint64_t>(node.ticks, INT64_MAX));
    MultiplySaturating(&cpu, tick_ns);
    sample.values = {cpu, static_cast<int64_t>(std::min<uint64_t>(node.alloc, INT64_MAX)),
                     static_cast<int64_t>(std::min<uint64_t>(node.entries, INT64_MAX))};
    sink->OnSample(sample);
  }
  sink->OnEnd();
}

bool LooksJson(std::string_view head) {
  const size_t start = head.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && head[start] == '{';
}

void ReadGhcProfInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  if (LooksJson(input.head)) {
    JsonDocument json(input, context.max_input_size, "JSON");
    Emit(JsonProfile(&json).Read(), input.name, context, sink);
    return;
  }
  WholeInput data;
  ReadWholeInput(input, context.max_input_size, "a GHC profile", &data);
  Emit(TextProfile(data.view(), input.name).Read(), input.name, context, sink);
}

int SniffGhcProf(std::string_view head, bool text) {
  if (!text) return kNotMine;
  if (LooksJson(head)) {
    const std::string_view top = head.substr(0, 600);
    return Contains(top, "\"total_ticks\"") && Contains(top, "\"tick_interval\"") ? kCertain
                                                                                  : kNotMine;
  }
  return Contains(FirstLine(head), "Time and Allocation Profiling Report") ? kCertain : kNotMine;
}

}  // namespace

const ReaderSpec kGhcProfReader = {
    "ghc-prof",
    "a GHC cost-centre profile (.prof)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffGhcProf,
    ReadGhcProfInput,
};

}  // namespace proftools
