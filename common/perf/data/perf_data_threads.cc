#include "common/perf/data/perf_data_threads.h"

#include <vector>

namespace proftools {

void PerfThreads::Mmap(int64_t pid, PerfMap map) {
  if (map.limit <= map.start) return;
  Maps& maps = processes_[pid];
  // What the new mapping overlaps is gone; a mapping partly covered keeps its other part.
  std::vector<std::shared_ptr<PerfMap>> kept;
  auto it = maps.upper_bound(map.start);
  if (it != maps.begin()) --it;
  while (it != maps.end() && it->second->start < map.limit) {
    const std::shared_ptr<PerfMap>& old = it->second;
    if (old->limit <= map.start) {
      ++it;
      continue;
    }
    if (old->start < map.start) {
      auto before = std::make_shared<PerfMap>(*old);
      before->limit = map.start;
      before->mapping_id = 0;
      kept.push_back(before);
    }
    if (old->limit > map.limit) {
      auto after = std::make_shared<PerfMap>(*old);
      after->pgoff += map.limit - old->start;
      after->start = map.limit;
      after->mapping_id = 0;
      kept.push_back(after);
    }
    it = maps.erase(it);
  }
  for (auto& part : kept) maps[part->start] = part;
  const uint64_t start = map.start;
  maps[start] = std::make_shared<PerfMap>(std::move(map));
}

void PerfThreads::Comm(int64_t pid, int64_t tid, std::string comm) {
  comms_[tid] = std::move(comm);
  thread_process_[tid] = pid;
}

void PerfThreads::Fork(int64_t pid, int64_t ppid, int64_t tid, int64_t ptid) {
  thread_process_[tid] = pid;
  auto parent_comm = comms_.find(ptid);
  if (parent_comm != comms_.end()) {
    const std::string comm = parent_comm->second;  // a copy: comms_ may rehash
    comms_[tid] = comm;
  }
  if (pid != ppid && processes_.count(pid) == 0) {
    auto parent = processes_.find(ppid);
    if (parent != processes_.end()) {
      Maps copy;
      for (const auto& entry : parent->second) copy[entry.first] = entry.second;
      processes_[pid] = std::move(copy);
    }
  }
}

const std::string& PerfThreads::CommOf(int64_t tid) {
  auto it = comms_.find(tid);
  if (it != comms_.end()) return it->second;
  // The idle task, which never gets a COMM record: perf calls it swapper.
  if (tid == 0) {
    scratch_ = "swapper";
    return scratch_;
  }
  scratch_ = ":" + std::to_string(tid);
  return scratch_;
}

int64_t PerfThreads::ProcessOf(int64_t tid) const {
  auto it = thread_process_.find(tid);
  return it == thread_process_.end() ? tid : it->second;
}

PerfMap* PerfThreads::Find(int64_t pid, uint64_t address) {
  auto process = processes_.find(pid);
  if (process == processes_.end()) return nullptr;
  Maps& maps = process->second;
  auto it = maps.upper_bound(address);
  if (it == maps.begin()) return nullptr;
  --it;
  return address < it->second->limit ? it->second.get() : nullptr;
}

}  // namespace proftools
