#include "common/pstats/pstats_codec.h"

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/whole_input.h"
#include "common/model/call_graph.h"
#include "common/model/interner.h"
#include "common/pstats/marshal.h"

namespace proftools {
namespace {

using Value = std::shared_ptr<const MarshalValue>;
using Kind = MarshalValue::Kind;

[[noreturn]] void Fail(const std::string& name, const std::string& what) {
  throw ProfError(name, "not pstats data: " + what);
}

// Seconds as nanoseconds, rounded; NaN, infinities and what does not fit are errors. `where()`
// says what the value is, for the message (made only then: a file has a value per function and
// caller).
template <typename Where>
int64_t Nanos(const MarshalValue& seconds, const std::string& name, const Where& where) {
  if (!seconds.IsNumber() || seconds.big) {
    Fail(name, where() + " is " + MarshalKindName(seconds.kind) + ", not a time in seconds");
  }
  const double nanos = std::round(seconds.AsDouble() * 1e9);
  if (!std::isfinite(nanos) || std::fabs(nanos) >= 9.2e18) {
    Fail(name, where() + " is a time out of range (" + std::to_string(seconds.AsDouble()) + " s)");
  }
  return static_cast<int64_t>(nanos);
}

template <typename Where>
uint64_t Calls(const MarshalValue& count, const std::string& name, const Where& where) {
  if (count.kind != Kind::kInt || count.i < 0) {
    Fail(name, where() + " is " + MarshalKindName(count.kind) + ", not a count of calls");
  }
  return static_cast<uint64_t>(count.i);
}

// A function's name; the profile module keys its entry by the code object it ran:
// ('profile', 0, <code object <module> ...>).
std::string NameOf(const MarshalValue& function) {
  return function.kind == Kind::kCode ? "<code object " + function.s + ">" : function.s;
}

// "file:line(function)", as pstats prints a function, for messages.
std::string Printed(const MarshalValue& key) {
  if (key.kind != Kind::kTuple || key.items.size() != 3) return "a function";
  const MarshalValue &file = *key.items[0], &line = *key.items[1], &function = *key.items[2];
  return file.s + ":" + std::to_string(line.i) + "(" + NameOf(function) + ")";
}

class PstatsConverter {
 public:
  explicit PstatsConverter(const std::string& name) : name_(name), graph_(1) {}

  uint32_t FunctionOf(const MarshalValue& key) {
    // marshal writes a key met before as a reference to it: the same object, looked up once.
    const auto [known, added] = functions_.try_emplace(&key, 0);
    if (!added) return known->second;
    if (key.kind != Kind::kTuple || key.items.size() != 3 || key.items[0]->kind != Kind::kString ||
        key.items[1]->kind != Kind::kInt ||
        (key.items[2]->kind != Kind::kString && key.items[2]->kind != Kind::kCode)) {
      Fail(name_, std::string("a function's key is ") + MarshalKindName(key.kind) +
                      ", not a tuple (file, line, function)");
    }
    if (key.items[1]->i < 0 || key.items[1]->big) {
      Fail(name_, Printed(key) + ": a line number out of range");
    }
    const std::string& file = key.items[0]->s;
    const std::string name = NameOf(*key.items[2]);
    // Built-ins: ('~', 0, '<built-in method time.sleep>'), and ('', 0, 'exec') in profile's.
    known->second = file == "~" ? graph_.FunctionAt(name, "", 0)
                                : graph_.FunctionAt(name, file, key.items[1]->i);
    return known->second;
  }

  void Read(const MarshalValue& stats) {
    if (stats.kind != Kind::kDict) {
      Fail(name_,
           std::string("the data is ") + MarshalKindName(stats.kind) + ", not a dict of functions");
    }
    for (const auto& [key, value] : stats.dict) {
      const uint32_t callee = FunctionOf(*key);
      const MarshalValue& callee_key = *key;  // (a structured binding cannot be captured)
      const auto at = [&](const char* what) {
        return [&callee_key, what] { return Printed(callee_key) + ": " + what; };
      };
      if (value->kind != Kind::kTuple || value->items.size() != 5) {
        Fail(name_, Printed(*key) + ": " + MarshalKindName(value->kind) +
                        " where (primitive calls, calls, self, cumulative, callers) belongs");
      }
      const std::vector<Value>& v = value->items;
      Calls(*v[0], name_, at("primitive calls"));
      const uint64_t calls = Calls(*v[1], name_, at("calls"));
      graph_.AddSelf(callee, {Nanos(*v[2], name_, at("self time"))});
      const int64_t cumulative = Nanos(*v[3], name_, at("cumulative time"));
      if (v[4]->kind != Kind::kDict) {
        Fail(name_, at("callers are")() + " " + MarshalKindName(v[4]->kind) + ", not a dict");
      }
      for (const auto& [caller_key, edge] : v[4]->dict) {
        const uint32_t caller = FunctionOf(*caller_key);
        const MarshalValue& from = *caller_key;
        const auto edge_at = [&](const char* what) {
          return [&callee_key, &from, what] {
            return Printed(callee_key) + ": from " + Printed(from) + ": " + what;
          };
        };
        if (edge->kind == Kind::kTuple && edge->items.size() == 4) {
          // cProfile: (calls, primitive calls, self, cumulative) of the calls from this caller.
          const uint64_t edge_calls = Calls(*edge->items[0], name_, edge_at("calls"));
          Calls(*edge->items[1], name_, edge_at("primitive calls"));
          Nanos(*edge->items[2], name_, edge_at("self time"));
          graph_.AddCall(caller, callee, edge_calls,
                         {Nanos(*edge->items[3], name_, edge_at("cumulative time"))});
        } else if (edge->kind == Kind::kInt) {
          // The profile module: a count only; the edge's share of the cumulative time by calls.
          const uint64_t edge_calls = Calls(*edge, name_, edge_at("calls"));
          const double share = calls == 0 ? 0 : static_cast<double>(edge_calls) / calls;
          graph_.AddCall(caller, callee, edge_calls,
                         {static_cast<int64_t>(std::llround(share * cumulative))});
          shared_by_calls_ = true;
        } else {
          Fail(name_, edge_at("")() + MarshalKindName(edge->kind) +
                          " where (calls, primitive calls, self, cumulative) belongs");
        }
      }
    }
  }

  CallGraph& graph() { return graph_; }
  bool shared_by_calls() const { return shared_by_calls_; }

 private:
  const std::string& name_;
  CallGraph graph_;
  std::unordered_map<const MarshalValue*, uint32_t> functions_;  // by key object
  bool shared_by_calls_ = false;
};

void ReadPstatsInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  WholeInput data;
  ReadWholeInput(input, context.max_input_size, "pstats data", &data);
  size_t end = 0;
  const Value stats = ReadMarshal(data.view(), input.name, &end);
  if (end != data.size()) {
    throw ProfError(input.name, "byte " + std::to_string(end) + ": " +
                                    std::to_string(data.size() - end) +
                                    " bytes after the statistics");
  }
  PstatsConverter converter(input.name);
  converter.Read(*stats);
  if (converter.graph().function_count() == 0 && !context.allow_empty) {
    throw ProfError(input.name,
                    "pstats data without functions (--allow-empty reads it as a profile "
                    "without samples)");
  }
  ProfileHeader header;
  header.sources.push_back(Source{1, "pstats", context.uri, std::nullopt});
  header.types.push_back({"time", "nanoseconds"});
  const bool with_calls = converter.graph().has_calls();
  if (with_calls) {
    header.types.push_back({"calls", "count"});
    header.default_type = "time";
  }
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), input.name);
  if (converter.graph().Emit(&interner, sink, 1, with_calls, {})) {
    context.Warn(input.name, CallGraph::CutWarning("callers", "time and call count"));
  }
  if (converter.shared_by_calls()) {
    context.Warn(
        input.name,
        "callers without times (the profile module's): each caller's share of a function's "
        "cumulative time is taken in proportion to its calls");
  }
  sink->OnEnd();
}

}  // namespace

int SniffPstats(std::string_view head, bool text) {
  if (text || head.size() < 3) return kNotMine;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(head[i]) & 0x7f; };
  // A dict, then its first key: a tuple of three (small tuple, or a tuple of int32 size 3).
  if (byte(0) != '{') return kNotMine;
  if (byte(1) == ')' && head[2] == 3) return kLikely;
  if (byte(1) == '(' && head.size() >= 6 && head.substr(2, 4) == std::string_view("\3\0\0\0", 4)) {
    return kLikely;
  }
  // An empty dict: no functions.
  if (byte(1) == '0' && head.size() == 2) return kPlausible;
  return kNotMine;
}

const ReaderSpec kPstatsReader = {
    "pstats",
    "Python profiler statistics (pstats, cProfile -o)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffPstats,
    ReadPstatsInput,
};

}  // namespace proftools
