#include "common/pstats/pstats_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/whole_input.h"
#include "common/model/call_graph.h"
#include "common/model/interner.h"
#include "common/pstats/cprofile_direct.h"
#include "common/pstats/marshal.h"
#include "common/pstats/pstats_graph.h"

namespace proftools {
namespace {

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
  int64_t nanos = 0;
  if (!SecondsAsNanos(seconds.AsDouble(), &nanos)) {
    Fail(name, where() + " is a time out of range (" + std::to_string(seconds.AsDouble()) + " s)");
  }
  return nanos;
}

template <typename Where>
uint64_t Calls(const MarshalValue& count, const std::string& name, const Where& where) {
  if (count.kind != Kind::kInt || count.i < 0) {
    Fail(name, where() + " is " + MarshalKindName(count.kind) + ", not a count of calls");
  }
  return static_cast<uint64_t>(count.i);
}

class PstatsConverter {
 public:
  PstatsConverter(const std::string& name, PythonMarshal& data, PstatsGraph* graph)
      : name_(name), data_(data), graph_(*graph) {}

  // A function's name; the profile module keys its entry by the code object it ran:
  // ('profile', 0, <code object <module> ...>).
  std::string NameOf(const MarshalValue& function) const {
    const std::string_view text = data_.Text(function);
    return function.kind == Kind::kCode ? "<code object " + std::string(text) + ">"
                                        : std::string(text);
  }

  // "file:line(function)", as pstats prints a function, for messages.
  std::string Printed(const MarshalValue& key) const {
    if (key.kind != Kind::kTuple || key.count != 3) return "a function";
    const MarshalValue &file = data_.item(key, 0), &line = data_.item(key, 1),
                       &function = data_.item(key, 2);
    return std::string(data_.Text(file)) + ":" + std::to_string(line.i) + "(" + NameOf(function) +
           ")";
  }

  uint32_t FunctionOf(const MarshalValue& key) {
    // marshal writes a key met before as a reference to it: the same object, looked up once
    // (its function + 1 kept in the tuple's scratch word).
    if (key.kind == Kind::kTuple && data_.scratch(key) != 0) {
      return static_cast<uint32_t>(data_.scratch(key) - 1);
    }
    if (key.kind != Kind::kTuple || key.count != 3 || data_.item(key, 0).kind != Kind::kString ||
        data_.item(key, 1).kind != Kind::kInt ||
        (data_.item(key, 2).kind != Kind::kString && data_.item(key, 2).kind != Kind::kCode)) {
      Fail(name_, std::string("a function's key is ") + MarshalKindName(key.kind) +
                      ", not a tuple (file, line, function)");
    }
    const MarshalValue& line = data_.item(key, 1);
    if (line.i < 0 || line.big) Fail(name_, Printed(key) + ": a line number out of range");
    const std::string_view file = data_.Text(data_.item(key, 0));
    const MarshalValue& named = data_.item(key, 2);
    const std::string code_name = named.kind == Kind::kCode ? NameOf(named) : std::string();
    const std::string_view name = named.kind == Kind::kCode ? code_name : data_.Text(named);
    const uint32_t function = graph_.FunctionOf(file, line.i, name);
    data_.scratch(key) = int64_t{function} + 1;
    return function;
  }

  // Reads the dict an entry at a time (PythonMarshal::kDictEntries).
  void Read() {
    if (!data_.streamed()) {
      Fail(name_, std::string("the data is ") + MarshalKindName(data_.root().kind) +
                      ", not a dict of functions");
    }
    graph_.Reserve(data_.input_size());
    const MarshalValue* key = nullptr;
    const MarshalValue* value = nullptr;
    for (uint32_t entry = 0; data_.NextEntry(&key, &value); ++entry) ReadEntry(entry, *key, *value);
  }

  void ReadEntry(uint32_t entry, const MarshalValue& callee_key, const MarshalValue& value) {
    const uint32_t callee = FunctionOf(callee_key);
    const auto at = [&](const char* what) {
      return [this, &callee_key, what] { return Printed(callee_key) + ": " + what; };
    };
    if (value.kind != Kind::kTuple || value.count != 5) {
      Fail(name_, Printed(callee_key) + ": " + MarshalKindName(value.kind) +
                      " where (primitive calls, calls, self, cumulative, callers) belongs");
    }
    Calls(data_.item(value, 0), name_, at("primitive calls"));
    const uint64_t calls = Calls(data_.item(value, 1), name_, at("calls"));
    graph_.BeginEntry(entry, callee, Nanos(data_.item(value, 2), name_, at("self time")));
    const int64_t cumulative = Nanos(data_.item(value, 3), name_, at("cumulative time"));
    const MarshalValue& callers = data_.item(value, 4);
    if (callers.kind != Kind::kDict) {
      Fail(name_, at("callers are")() + " " + MarshalKindName(callers.kind) + ", not a dict");
    }
    for (uint32_t k = 0; k < callers.count / 2; ++k) {
      const MarshalValue& from = data_.item(callers, 2 * k);
      const MarshalValue& edge = data_.item(callers, 2 * k + 1);
      const uint32_t caller = FunctionOf(from);
      const auto edge_at = [&](const char* what) {
        return [this, &callee_key, &from, what] {
          return Printed(callee_key) + ": from " + Printed(from) + ": " + what;
        };
      };
      uint64_t edge_calls = 0;
      int64_t time = 0;
      if (edge.kind == Kind::kTuple && edge.count == 4) {
        // cProfile: (calls, primitive calls, self, cumulative) of the calls from this caller.
        edge_calls = Calls(data_.item(edge, 0), name_, edge_at("calls"));
        Calls(data_.item(edge, 1), name_, edge_at("primitive calls"));
        Nanos(data_.item(edge, 2), name_, edge_at("self time"));
        time = Nanos(data_.item(edge, 3), name_, edge_at("cumulative time"));
      } else if (edge.kind == Kind::kInt) {
        // The profile module: a count only; the edge's share of the cumulative time by calls.
        edge_calls = Calls(edge, name_, edge_at("calls"));
        const double share = calls == 0 ? 0 : static_cast<double>(edge_calls) / calls;
        time = static_cast<int64_t>(std::llround(share * cumulative));
        shared_by_calls_ = true;
      } else {
        Fail(name_, edge_at("")() + MarshalKindName(edge.kind) +
                        " where (calls, primitive calls, self, cumulative) belongs");
      }
      graph_.AddCaller(caller, edge_calls, time);
    }
  }

  bool shared_by_calls() const { return shared_by_calls_; }

 private:
  const std::string& name_;
  PythonMarshal& data_;
  PstatsGraph& graph_;
  bool shared_by_calls_ = false;
};

}  // namespace

CallGraph ReadPstatsGraph(std::string_view bytes, const std::string& name, PstatsReading reading,
                          bool* shared_by_calls) {
  *shared_by_calls = false;
  PstatsGraph read;
  if (reading == PstatsReading::kMarshalOnly || !ReadCProfileDirect(bytes, &read)) {
    read = PstatsGraph();  // not cProfile's shape, or an error in it
    PythonMarshal stats(bytes, name, PythonMarshal::Mode::kDictEntries);
    PstatsConverter converter(name, stats, &read);
    converter.Read();
    const size_t end = stats.end();
    if (end != bytes.size()) {
      throw ProfError(name, "byte " + std::to_string(end) + ": " +
                                std::to_string(bytes.size() - end) + " bytes after the statistics");
    }
    *shared_by_calls = converter.shared_by_calls();
  }
  CallGraph graph = std::move(read.graph());
  graph.Seal();
  return graph;
}

namespace {

void ReadPstatsInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  CallGraph graph(1);
  bool shared_by_calls = false;
  {
    WholeInput data;
    ReadWholeInput(input, context.max_input_size, "pstats data", &data);
    graph = ReadPstatsGraph(data.view(), input.name, PstatsReading::kDirectFirst, &shared_by_calls);
  }  // the input (and its marshal objects, when read so) freed here: their memory is
     // what the stacks are built in, not pages the kernel must zero again
  if (graph.function_count() == 0 && !context.allow_empty) {
    throw ProfError(input.name,
                    "pstats data without functions (--allow-empty reads it as a profile "
                    "without samples)");
  }
  ProfileHeader header;
  header.sources.push_back(Source{1, "pstats", context.uri, std::nullopt});
  header.types.push_back({"time", "nanoseconds"});
  const bool with_calls = graph.has_calls();
  if (with_calls) {
    header.types.push_back({"calls", "count"});
    header.default_type = "time";
  }
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), input.name);
  if (graph.Emit(&interner, sink, 1, with_calls, {})) {
    context.Warn(input.name, CallGraph::CutWarning("callers", "time and call count"));
  }
  if (shared_by_calls) {
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
