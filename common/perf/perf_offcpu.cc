#include "common/perf/perf_offcpu.h"

#include <algorithm>

#include "common/base/counted.h"

namespace proftools {

void PerfOffCpu::Running(int64_t tid, int64_t time) {
  auto it = open_.find(tid);
  if (it == open_.end()) return;
  const Open& open = it->second;
  emit_(tid, open.stack_id, open.labels, open.time, std::max<int64_t>(0, time - open.time));
  open_.erase(it);
}

void PerfOffCpu::SwitchedOut(int64_t tid, int64_t time, uint64_t stack_id,
                             std::vector<Label> labels, std::string state) {
  Running(tid, time);
  if (tid <= 0 || state.empty() || state[0] == 'X' || state[0] == 'Z') return;
  labels.push_back(Label::String("state", std::move(state)));
  open_[tid] = Open{time, stack_id, std::move(labels)};
}

void PerfOffCpu::End(int64_t time) {
  // In order of switch-out (then thread), not of the hash table.
  std::vector<std::pair<int64_t, int64_t>> order;
  for (const auto& [tid, open] : open_) order.emplace_back(open.time, tid);
  std::sort(order.begin(), order.end());
  for (const auto& entry : order) Running(entry.second, time);
}

std::string PerfOffCpu::OpenThreadsSummary() const {
  if (open_.empty()) return "";
  std::vector<int64_t> threads;
  for (const auto& entry : open_) threads.push_back(entry.first);
  std::sort(threads.begin(), threads.end());
  std::string names;
  for (size_t i = 0; i < threads.size() && i < 8; ++i) {
    names += (i == 0 ? "" : ", ") + std::to_string(threads[i]);
  }
  if (threads.size() > 8) names += ", ...";
  return Counted(threads.size(), "thread", "threads") + " (" + names + ")";
}

}  // namespace proftools
