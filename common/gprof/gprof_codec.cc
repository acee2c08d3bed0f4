#include "common/gprof/gprof_codec.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/gprof/gmon_file.h"
#include "common/io/whole_input.h"
#include "common/model/call_graph.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

// Each function's samples, as gprof's hist_assign_samples credits them: a bin [low, high) of
// width w (addresses truncated as gprof truncates them) gives each function it overlaps
// count * overlap / w. Returns the samples no function took.
double CreditHistogram(const GmonHistogram& histogram, const ElfFunctionTable& table,
                       std::vector<double>* credit) {
  const std::vector<ElfFunction>& functions = table.functions;
  const double width =
      static_cast<double>(histogram.high_pc - histogram.low_pc) / histogram.bins.size();
  double lost = 0;
  for (size_t i = 0; i < histogram.bins.size(); ++i) {
    const uint16_t count = histogram.bins[i];
    if (count == 0) continue;
    const uint64_t low = histogram.low_pc + static_cast<uint64_t>(width * i);
    const uint64_t high = histogram.low_pc + static_cast<uint64_t>(width * (i + 1));
    auto it = std::upper_bound(functions.begin(), functions.end(), low,
                               [](uint64_t a, const ElfFunction& f) { return a < f.start; });
    if (it != functions.begin()) --it;
    double taken = 0;
    for (; it != functions.end() && it->start < high; ++it) {
      const uint64_t from = std::max(low, it->start), to = std::min(high, it->end);
      if (to <= from) continue;
      const double share = static_cast<double>(to - from) * count / width;
      (*credit)[static_cast<size_t>(it - functions.begin())] += share;
      taken += share;
    }
    lost += std::max(0.0, count - taken);
  }
  return lost;
}

// gprof -q's propagation of time along the call arcs: a function's total time is its own and,
// through each call, its callee's total in proportion to the callee's calls; a cycle of calls
// (a strongly connected set of functions, gprof's <cycle N>) is one node whose time is its
// members' and whose calls are those from outside it. The time an arc carries: from outside a
// cycle (or between two functions in none), the callee's (or its cycle's) total times the
// arc's calls over the calls from outside; within a cycle, which gprof does not divide, the
// callee's time outside the cycle in proportion to all its calls, and nothing along an arc back
// to a function that a search from the cycle's most called member reaches first (for the stacks
// only: so that the cycle hangs under its callers once, not also as a root of its own).
class Propagation {
 public:
  Propagation(const std::vector<int64_t>& self,
              const std::map<std::pair<size_t, size_t>, uint64_t>& arcs)
      : n_(self.size()), callees_(n_), component_(n_, kNone) {
    for (const auto& [arc, count] : arcs) {
      // Spontaneous calls (from outside the executable, index n) have no caller here.
      if (arc.first < n_ && arc.first != arc.second) {
        callees_[arc.first].push_back({arc.second, count});
      }
    }
    FindComponents();
    // Calls into each function: all of them, and those from outside its component.
    calls_.assign(n_, 0);
    outside_by_function_.assign(n_, 0);
    std::vector<uint64_t> outside(components_, 0);
    for (const auto& [arc, count] : arcs) {
      if (arc.first == arc.second) continue;
      calls_[arc.second] += count;
      if (arc.first >= n_ || component_[arc.first] != component_[arc.second]) {
        outside[component_[arc.second]] += count;
        outside_by_function_[arc.second] += count;
      }
    }
    // Components come out of Tarjan's search callees first: each one's time is known before
    // any caller's.
    FindBackArcs();
    own_.assign(n_, 0);
    component_total_.assign(components_, 0);
    outside_calls_ = std::move(outside);
    for (size_t c = 0; c < components_; ++c) {
      for (const size_t f : members_[c]) {
        double own = static_cast<double>(self[f]);
        for (const auto& [callee, count] : callees_[f]) {
          if (component_[callee] != c) own += Share(callee, count);
        }
        own_[f] = own;
        component_total_[c] += own;
      }
    }
  }

  // The time the arc caller -> callee carries.
  int64_t ArcTime(size_t caller, size_t callee, uint64_t count) const {
    if (caller < n_ && component_[caller] == component_[callee]) {
      if (back_arcs_.count({caller, callee}) != 0) return 0;
      return calls_[callee] == 0
                 ? 0
                 : std::llround(own_[callee] * static_cast<double>(count) / calls_[callee]);
    }
    return std::llround(Share(callee, count));
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;

  // The part of `callee`'s component's time that `count` calls from outside it carry.
  double Share(size_t callee, uint64_t count) const {
    const size_t c = component_[callee];
    return outside_calls_[c] == 0
               ? 0
               : component_total_[c] * static_cast<double>(count) / outside_calls_[c];
  }

  // Tarjan's strongly connected components, without recursion (a chain of calls may be as
  // long as the functions are many).
  void FindComponents() {
    std::vector<size_t> index(n_, kNone), low(n_, 0), stack;
    std::vector<bool> on_stack(n_, false);
    struct Frame {
      size_t function, next;
    };
    size_t counter = 0;
    for (size_t root = 0; root < n_; ++root) {
      if (index[root] != kNone) continue;
      std::vector<Frame> path{{root, 0}};
      index[root] = low[root] = counter++;
      stack.push_back(root);
      on_stack[root] = true;
      while (!path.empty()) {
        Frame& top = path.back();
        const size_t f = top.function;
        if (top.next < callees_[f].size()) {
          const size_t callee = callees_[f][top.next++].first;
          if (index[callee] == kNone) {
            index[callee] = low[callee] = counter++;
            stack.push_back(callee);
            on_stack[callee] = true;
            path.push_back({callee, 0});
          } else if (on_stack[callee]) {
            low[f] = std::min(low[f], index[callee]);
          }
          continue;
        }
        if (low[f] == index[f]) {
          members_.emplace_back();
          size_t member;
          do {
            member = stack.back();
            stack.pop_back();
            on_stack[member] = false;
            component_[member] = components_;
            members_.back().push_back(member);
          } while (member != f);
          ++components_;
        }
        path.pop_back();
        if (!path.empty()) low[path.back().function] = std::min(low[path.back().function], low[f]);
      }
    }
  }

  // In each cycle, a depth-first search from its member most called from outside; its arcs to a
  // function on the search's path are the back arcs.
  void FindBackArcs() {
    for (const std::vector<size_t>& members : members_) {
      if (members.size() < 2) continue;
      const size_t c = component_[members[0]];
      size_t entry = members[0];
      for (const size_t m : members) {
        if (outside_by_function_[m] > outside_by_function_[entry]) entry = m;
      }
      std::vector<bool> seen(n_, false), on_path(n_, false);
      std::vector<std::pair<size_t, size_t>> path{{entry, 0}};
      seen[entry] = on_path[entry] = true;
      while (!path.empty()) {
        auto& [f, next] = path.back();
        if (next < callees_[f].size()) {
          const size_t callee = callees_[f][next++].first;
          if (component_[callee] != c) continue;
          if (on_path[callee]) {
            back_arcs_.insert({f, callee});
          } else if (!seen[callee]) {
            seen[callee] = on_path[callee] = true;
            path.push_back({callee, 0});
          }
          continue;
        }
        on_path[f] = false;
        path.pop_back();
      }
    }
  }

  size_t n_;
  std::vector<std::vector<std::pair<size_t, uint64_t>>> callees_;
  std::vector<size_t> component_;             // by function
  std::vector<std::vector<size_t>> members_;  // by component, callees' components first
  size_t components_ = 0;
  std::vector<uint64_t> calls_;                // by function: calls from other functions
  std::vector<uint64_t> outside_calls_;        // by component: calls from outside it
  std::vector<double> own_;                    // by function: self and calls out of its component
  std::vector<double> component_total_;        // by component
  std::vector<uint64_t> outside_by_function_;  // calls from outside its component
  std::set<std::pair<size_t, size_t>> back_arcs_;
};

}  // namespace

void ReadGprof(Input& gmon, const ReadContext& context, const ElfFunctionTable& table,
               const std::string& executable, ProfileSink* sink) {
  ReadGprof(std::vector<Input*>{&gmon}, context, table, executable, sink);
}

void ReadGprof(const std::vector<Input*>& gmons, const ReadContext& context,
               const ElfFunctionTable& table, const std::string& executable, ProfileSink* sink) {
  const size_t n = table.functions.size();
  std::vector<double> credit(n, 0);                    // self samples
  std::map<std::pair<size_t, size_t>, uint64_t> arcs;  // (caller, callee): calls
  const size_t kSpontaneous = n;
  uint32_t rate = 0;
  bool seconds = true, any_histogram = false;
  for (Input* gmon : gmons) {
    WholeInput data;
    ReadWholeInput(*gmon, context.max_input_size, "gmon.out", &data);
    const GmonFile file =
        ParseGmon(data.view(), table.is_64bit ? 8 : 4, table.little_endian, gmon->name);
    // Self time.
    double lost = 0;
    for (const GmonHistogram& histogram : file.histograms) {
      if (rate != 0 && histogram.rate != rate) {
        throw ProfError(gmon->name, "byte " + std::to_string(histogram.byte) +
                                        ": histograms of two rates (" + std::to_string(rate) +
                                        " and " + std::to_string(histogram.rate) + " a second)");
      }
      rate = histogram.rate;
      seconds = seconds && histogram.dimension == "seconds";
      lost += CreditHistogram(histogram, table, &credit);
      any_histogram = true;
    }
    // Calls.
    uint64_t lost_arcs = 0;
    for (const GmonArc& arc : file.arcs) {
      const ElfFunction* callee = table.Find(arc.self_pc);
      if (callee == nullptr) {
        lost_arcs += arc.count;
        continue;
      }
      const ElfFunction* caller = table.Find(arc.from_pc);
      const size_t to = static_cast<size_t>(callee - table.functions.data());
      const size_t from =
          caller == nullptr ? kSpontaneous : static_cast<size_t>(caller - table.functions.data());
      arcs[{from, to}] += arc.count;  // (uint32 counts: no sum of them reaches 2^64)
    }
    if (lost >= 0.5) {
      context.Warn(gmon->name, std::to_string(std::llround(lost)) +
                                   " samples fall in no function of " + executable +
                                   " (a shared library's, or the wrong executable?): left out");
    }
    if (lost_arcs > 0) {
      context.Warn(gmon->name, std::to_string(lost_arcs) + " calls go to no function of " +
                                   executable + ": left out");
    }
    if (file.basic_block_records > 0) {
      context.Warn(gmon->name, "basic-block counts (gcc -a) are not read");
    }
  }
  if (!any_histogram && arcs.empty() && !context.allow_empty) {
    throw ProfError(gmons.front()->name, gmons.size() == 1
                                             ? "a gmon.out without a histogram or call arcs"
                                             : "gmon.out files without a histogram or call arcs");
  }
  // In nanoseconds (rounded) when the histogram counts time, else in samples.
  const double scale = seconds && rate != 0 ? 1e9 / rate : 1;
  std::vector<int64_t> self(n);
  for (size_t i = 0; i < n; ++i) self[i] = std::llround(credit[i] * scale);

  CallGraph graph(1);
  std::vector<uint32_t> ids(n, UINT32_MAX);
  const auto id = [&](size_t function) {
    if (ids[function] == UINT32_MAX) {
      ids[function] = graph.Function(executable, table.functions[function].name, "");
    }
    return ids[function];
  };
  for (size_t i = 0; i < n; ++i) {
    if (self[i] != 0) graph.AddSelf(id(i), {self[i]});
  }
  Propagation propagation(self, arcs);
  for (const auto& [arc, count] : arcs) {
    if (arc.first == kSpontaneous) {
      id(arc.second);
      continue;
    }
    // A function's calls to itself are not its calls in gprof's flat profile (its call graph
    // shows them as "+N"): left out, as they carry no time.
    if (arc.first == arc.second) continue;
    graph.AddCall(id(arc.first), id(arc.second), count,
                  {propagation.ArcTime(arc.first, arc.second, count)});
  }

  ProfileHeader header;
  header.sources.push_back(Source{1, "gprof", context.uri, std::nullopt});
  header.meta.push_back({"gprof.executable", executable});
  if (gmons.size() > 1) header.meta.push_back({"gprof.files", std::to_string(gmons.size())});
  header.types.push_back(seconds ? ValueType{"time", "nanoseconds"}
                                 : ValueType{"samples", "count"});
  const bool with_calls = !arcs.empty();
  if (with_calls) header.types.push_back({"calls", "count"});
  header.default_type = header.types[0].type;
  if (seconds && rate != 0) {
    header.period = Period{{"cpu", "nanoseconds"}, std::llround(1e9 / rate)};
  }
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context.max_implied_frames(), gmons.front()->name);
  if (graph.Emit(&interner, sink, 1, with_calls, {})) {
    context.Warn(gmons.front()->name, CallGraph::CutWarning("call arcs", "time and call count"));
  }
  sink->OnEnd();
}

}  // namespace proftools
