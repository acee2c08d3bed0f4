// Event names as perf prints them, and the names their value types get. perf appends modifiers
// to an event (`cpu-clock:ppp`, `cycles:P`, `cycles:u`, `cpu_core/cycles/P`); the type is named
// after the event without them, so that `--value cycles` finds a default recording, and the
// modifiers are kept in a meta record. A tracepoint's colon (`sched:sched_switch`) is part of
// its name: only a suffix made of modifier letters is a modifier.
#ifndef PROFTOOLS_COMMON_PERF_PERF_EVENTS_H_
#define PROFTOOLS_COMMON_PERF_PERF_EVENTS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace proftools {

struct PerfEventName {
  std::string_view base;       // `cpu-clock`, `cpu_core/cycles`, `sched:sched_switch`
  std::string_view modifiers;  // `ppp`, `P`, or empty
};
PerfEventName SplitPerfEvent(std::string_view event);

// `# event : name = cycles:P, , id = { 12, 13 }, ...` (perf script --header): the event's name
// as perf prints it on samples. False for other comments.
bool ParsePerfEventComment(std::string_view comment, std::string* name);

// How the event of such a comment was sampled: perf prints `{ sample_period, sample_freq } = N`
// (older perf `sample_period = N` or `sample_freq = N`) and `freq = 1` when N is a frequency in
// Hz rather than a period. False when the comment says neither.
struct PerfEventSampling {
  uint64_t value = 0;
  bool frequency = false;  // value is in Hz: the kernel adjusts the period as it samples
};
bool ParsePerfEventSampling(std::string_view comment, PerfEventSampling* sampling);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_EVENTS_H_
