// A tracepoint's arguments, as perf script prints them after the event
// (`prev_comm=sh prev_pid=26028 prev_prio=120 prev_state=S ==> next_comm=swapper/1 ...`), as
// labels: each `KEY=VALUE` one label, a value of digits a number (`runtime=11898 [ns]` one in
// nanoseconds), any other a string. A blank-separated word without `=` continues the value
// before it (`prev_comm=Web Content`), except perf's `==>` arrow. Arguments printed another way
// (`fd: 0x00000003, buf: ...`) become the one string label `args`.
#ifndef PROFTOOLS_COMMON_PERF_PERF_TRACEPOINT_H_
#define PROFTOOLS_COMMON_PERF_PERF_TRACEPOINT_H_

#include <string_view>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// Appends the labels of `args` to `labels`. A key perf2prof already gives every sample (comm,
// pid, tid, cpu) gets the prefix `arg.`, so that a label names one thing.
void AppendTracepointLabels(std::string_view args, std::vector<Label>* labels);

// The value of argument `key` in `args`, or empty (used for sched_switch's prev_state,
// prev_pid and next_pid).
std::string_view TracepointArgument(std::string_view args, std::string_view key);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_TRACEPOINT_H_
