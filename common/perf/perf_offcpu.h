// Off-CPU time from `sched:sched_switch` recordings with call graphs (`perf2prof --off-cpu`):
// each interval a thread spends switched out becomes one sample at its switch-out stack, worth
// the interval in nanoseconds, with TIME = the switch-out and DURATION = the interval.
//
// An interval opens at a sched_switch sample of the thread (its stack is where it blocked;
// prev_state says why: S sleeping, D uninterruptible, R preempted, ...) and closes at the first
// sign that the thread runs again: a sched_switch naming it next_pid (recordings of every CPU,
// `perf record -a`), a `PERF_RECORD_SWITCH IN` of it (`--switch-events`), or any later sample
// of it (recordings of one command see only its own switch-outs: the interval then includes
// the little the thread ran before that sample). A thread that leaves dead (X) or a zombie (Z)
// opens none, the idle task (tid 0) neither. Intervals still open at the end of an input close
// at its last timestamp.
#ifndef PROFTOOLS_COMMON_PERF_PERF_OFFCPU_H_
#define PROFTOOLS_COMMON_PERF_PERF_OFFCPU_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/model.h"

namespace proftools {

class PerfOffCpu {
 public:
  // Receives each closed interval: its thread, the switch-out's stack and labels (the
  // thread's and `state`), its time and the interval.
  using Emit = std::function<void(int64_t tid, uint64_t stack_id, const std::vector<Label>& labels,
                                  int64_t time, int64_t duration)>;
  explicit PerfOffCpu(Emit emit) : emit_(std::move(emit)) {}

  // Thread `tid` runs at `time`: its open interval, if any, closes.
  void Running(int64_t tid, int64_t time);
  // Thread `tid` was switched out at `time` at `stack_id`, in `state`.
  void SwitchedOut(int64_t tid, int64_t time, uint64_t stack_id, std::vector<Label> labels,
                   std::string state);
  // The input ends at `time`: every open interval closes there.
  void End(int64_t time);
  // The threads whose interval is still open, for a warning: "2 threads (12, 15)" (the first
  // eight named); "" when none is.
  std::string OpenThreadsSummary() const;

 private:
  struct Open {
    int64_t time = 0;
    uint64_t stack_id = 0;
    std::vector<Label> labels;
  };
  Emit emit_;
  std::unordered_map<int64_t, Open> open_;  // by thread: one entry per thread switched out
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_OFFCPU_H_
