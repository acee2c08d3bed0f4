#include "common/callgrind/callgrind_codec.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common/base/counted.h"
#include "common/base/strings.h"
#include "common/base/units.h"
#include "common/callgrind/callgrind_reader.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

std::string Costs(const std::vector<int64_t>& costs) {
  std::string out;
  for (int64_t c : costs) out += (out.empty() ? "" : " ") + std::to_string(c);
  return out;
}

// totals: must be the sum of the cost lines; summary: at least that (callgrind's summary also
// counts what no cost line shows), but in Xdebug's files.
void CheckTotals(const CallgrindFile& file, const std::string& name, const ReadContext& context) {
  const std::vector<int64_t>& sums = file.graph->self_totals();
  auto sum = [&](size_t i) { return i < sums.size() ? sums[i] : 0; };
  if (!file.totals.empty()) {
    bool same = file.totals.size() <= file.events.size();
    for (size_t i = 0; same && i < file.events.size(); ++i) {
      same = (i < file.totals.size() ? file.totals[i] : 0) == sum(i);
    }
    if (!same) {
      std::vector<int64_t> got(file.events.size());
      for (size_t i = 0; i < got.size(); ++i) got[i] = sum(i);
      context.Warn(name, "totals: says " + Costs(file.totals) + " but the cost lines sum to " +
                             Costs(got) + " (the values read are the cost lines')");
    }
  }
  // Xdebug's summary is the time since its profiler started and the peak memory, not sums.
  if (!file.summary.empty() && file.creator.rfind("xdebug", 0) != 0) {
    bool below = file.summary.size() > file.events.size();
    for (size_t i = 0; !below && i < file.summary.size(); ++i) below = file.summary[i] < sum(i);
    if (below) {
      context.Warn(name, "summary: " + Costs(file.summary) +
                             " is less than the cost lines' sum (the values read are the "
                             "cost lines')");
    }
  }
}

// An event's value type. pprof -callgrind (and prof2callgrind) write a type with a unit as
// TYPE(UNIT), Xdebug as TYPE_(UNIT): Time_(10ns), Memory_(bytes). A time unit is spelt out
// (ns: nanoseconds), and one of several (10ns) scales the costs into it. An event named by a
// time unit alone (`events: ms`, as some exporters write) is a time in that unit.
struct EventType {
  std::string name, unit = "count";
  int64_t factor = 1;
};
EventType ParseEventType(const std::string& event) {
  EventType type;
  type.name = event;
  const size_t open = event.find('(');
  if (open == std::string::npos) {
    static const std::pair<const char*, const char*> kTimeUnits[] = {{"ns", "nanoseconds"},
                                                                     {"us", "microseconds"},
                                                                     {"\u00b5s", "microseconds"},
                                                                     {"ms", "milliseconds"}};
    for (const auto& [unit, spelt] : kTimeUnits) {
      if (event != unit) continue;
      type.name = "time";
      type.unit = spelt;
    }
    return type;
  }
  if (open == 0 || event.back() != ')' || open + 2 >= event.size()) return type;
  type.name = event.substr(0, open);
  if (type.name.size() > 1 && type.name.back() == '_') type.name.pop_back();
  type.unit = event.substr(open + 1, event.size() - open - 2);
  // A multiple of a time unit: digits (at most 9: the factor stays an int64), then the unit.
  size_t digits = 0;
  while (digits < type.unit.size() && digits < 10 && type.unit[digits] >= '0' &&
         type.unit[digits] <= '9') {
    ++digits;
  }
  // The unit after the digits, as common/base/units knows it (µs as us): a time of one of the
  // four sizes is spelt out, its multiple taken as the factor.
  std::string unit = type.unit.substr(digits);
  if (unit == "\u00b5s") unit = "us";
  const KnownUnit known = LookUpUnit(unit);
  if (known.dimension == nullptr || std::strcmp(known.dimension, "time") != 0 || digits > 9) {
    return type;
  }
  static const std::pair<int64_t, const char*> kSpelt[] = {{1, "nanoseconds"},
                                                           {1000, "microseconds"},
                                                           {1000000, "milliseconds"},
                                                           {1000000000, "seconds"}};
  const int64_t factor = digits == 0 ? 1 : std::stoll(type.unit.substr(0, digits));
  for (const auto& [size, spelt] : kSpelt) {
    if (known.factor != size || factor == 0) continue;
    type.unit = spelt;
    type.factor = factor;
  }
  return type;
}

void ReadCallgrindInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  CallgrindFile file = ReadCallgrind(input.stream.get(), input.name);
  if (file.graph == nullptr) {
    if (!context.allow_empty || !input.head.empty()) {
      throw ProfError(input.name, "no events: line: not a callgrind or cachegrind profile");
    }
    file.events = {"Ir"};
    file.graph = std::make_unique<CallGraph>(1);
  }
  if (file.graph->function_count() == 0 && !context.allow_empty) {
    throw ProfError(input.name,
                    "a callgrind profile without cost lines (--allow-empty reads it as a profile "
                    "without samples)");
  }
  CheckTotals(file, input.name, context);

  ProfileHeader header;
  header.sources.push_back(Source{1, "callgrind", context.uri, std::nullopt});
  UniqueTypeNames names;
  for (size_t e = 0; e < file.events.size(); ++e) {
    const EventType type = ParseEventType(file.events[e]);
    header.types.push_back({names.Take(type.name), type.unit});
    if (type.factor != 1) file.graph->Scale(e, type.factor);
  }
  const bool with_calls = file.graph->has_calls();
  if (with_calls) header.types.push_back({names.Take("calls"), "count"});
  if (header.types.size() > 1) header.default_type = header.types[0].type;
  if (!file.cmd.empty()) header.meta.push_back({"cmd", file.cmd});
  if (!file.creator.empty()) header.meta.push_back({"creator", file.creator});
  sink->OnHeader(header);

  std::vector<Label> labels;
  if (file.pid) labels.push_back(Label::Number(kPidLabel, *file.pid));
  if (file.thread) labels.push_back(Label::String(kThreadLabel, std::to_string(*file.thread)));
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), input.name);
  if (file.graph->Emit(&interner, sink, 1, with_calls, labels)) {
    context.Warn(input.name, CallGraph::CutWarning("calls", "cost and call count"));
  }
  if (file.parts > 1) {
    context.Warn(input.name, Counted(file.parts, "part", "parts") + " summed into one profile");
  }
  if (file.jumps > 0) {
    context.Warn(input.name,
                 Counted(file.jumps, "jump= or jcnd= line", "jump= or jcnd= lines") + " left out");
  }
  sink->OnEnd();
}

}  // namespace

int SniffCallgrind(std::string_view head, bool text) {
  if (!text) return kNotMine;
  if (StartsWith(head, "# callgrind format")) return kCertain;
  // The header: key: value lines (and comments, blank lines) up to the first body line.
  bool events = false;
  size_t start = 0;
  while (start < head.size()) {
    size_t end = head.find('\n', start);
    if (end == std::string_view::npos) break;  // a line cut by the head's end says nothing
    std::string_view line = head.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line == "\r" || line[0] == '#') continue;
    static constexpr std::string_view kKeys[] = {
        "version:", "creator:",   "desc:",   "cmd:",   "pid:",    "thread:",
        "part:",    "positions:", "events:", "event:", "summary:"};
    bool known = false;
    for (std::string_view key : kKeys) known = known || StartsWith(line, key);
    if (!known) break;
    events = events || StartsWith(line, "events:");
  }
  return events ? kLikely : kNotMine;
}

const ReaderSpec kCallgrindReader = {
    "callgrind",
    "a callgrind or cachegrind profile (valgrind)",
    ReaderShape::kStreaming,
    nullptr,
    SniffCallgrind,
    ReadCallgrindInput,
};

}  // namespace proftools
