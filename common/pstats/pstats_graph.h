// What a reading of a pstats dict adds to its call graph, and in which order: shared by the two
// readings of pstats_codec.cc (the common shape of cProfile's files straight from the bytes,
// cprofile_direct.h, and anything marshal writes through marshal.h's objects), so that both give
// one graph, function by function and edge by edge.
#ifndef PROFTOOLS_COMMON_PSTATS_PSTATS_GRAPH_H_
#define PROFTOOLS_COMMON_PSTATS_PSTATS_GRAPH_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/model/call_graph.h"

namespace proftools {

// Seconds as nanoseconds, rounded; false for NaN, infinities and what does not fit.
inline bool SecondsAsNanos(double seconds, int64_t* nanos) {
  const double rounded = std::round(seconds * 1e9);
  if (!std::isfinite(rounded) || std::fabs(rounded) >= 9.2e18) return false;
  *nanos = static_cast<int64_t>(rounded);
  return true;
}

class PstatsGraph {
 public:
  PstatsGraph() : graph_(1) {}

  // Room at once for the functions and edges a file of `bytes` may hold (cProfile's take some
  // 200 bytes a function and 50 an edge): room not used is address space, not memory.
  void Reserve(size_t bytes) {
    graph_.Reserve(std::min<size_t>(bytes / 128, size_t{1} << 22),
                   std::min<size_t>(bytes / 32, size_t{1} << 24));
  }

  // The function a key (file, line, name) stands for. Built-ins, ('~', 0, '<built-in method
  // time.sleep>'), and ('', 0, 'exec') in profile's, have no file or line.
  uint32_t FunctionOf(std::string_view file, int64_t line, std::string_view name) {
    return file == "~" ? graph_.FunctionAt(name, "", 0) : graph_.FunctionAt(name, file, line);
  }

  // Entry number `entry` of the dict (from 0), for `callee`, begins: its self time.
  void BeginEntry(uint32_t entry, uint32_t callee, int64_t self_nanos) {
    entry_ = entry;
    callee_ = callee;
    // Its callers are new edges unless another key named the same function (FunctionAt: equal
    // file, line and name) or this dict names a caller twice the same way.
    callee_seen_ = Mark(&seen_as_callee_, callee, 1);
    graph_.AddSelf(callee, {self_nanos});
  }
  // A caller of the entry's function: `calls` calls taking `nanos` (cumulative).
  void AddCaller(uint32_t caller, uint64_t calls, int64_t nanos) {
    if (!Mark(&caller_of_entry_, caller, entry_ + 1) && !callee_seen_) {
      graph_.AddNewCall(caller, callee_, calls, {nanos});
    } else {
      graph_.AddCall(caller, callee_, calls, {nanos});
    }
  }

  CallGraph& graph() { return graph_; }

 private:
  // Sets (*marks)[function] to `mark`; returns whether it was `mark` already.
  static bool Mark(std::vector<uint32_t>* marks, uint32_t function, uint32_t mark) {
    if (marks->size() <= function) marks->resize(size_t{function} + 1, 0);
    const bool was = (*marks)[function] == mark;
    (*marks)[function] = mark;
    return was;
  }

  CallGraph graph_;
  uint32_t entry_ = 0, callee_ = 0;
  bool callee_seen_ = false;
  std::vector<uint32_t> seen_as_callee_;   // by function: 1 once its callers were read
  std::vector<uint32_t> caller_of_entry_;  // by function: the last entry (+ 1) it called
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_PSTATS_GRAPH_H_
