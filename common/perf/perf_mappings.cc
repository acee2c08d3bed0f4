#include "common/perf/perf_mappings.h"

#include <algorithm>

namespace proftools {
namespace {

constexpr std::string_view kKernel = "[kernel.kallsyms]";

}  // namespace

void PerfMappings::Add(const PerfRecordLine& mmap) {
  if (mmap.pid >= 0 && mmap.tid >= 0) thread_process_[mmap.tid] = mmap.pid;
  std::vector<Segment>& segments = processes_[mmap.pid];
  Segment segment;
  segment.start = mmap.start;
  segment.limit = mmap.start + mmap.length < mmap.start ? ~uint64_t{0} : mmap.start + mmap.length;
  segment.offset = mmap.pgoff;
  // The kernel's map is `[kernel.kallsyms]_text`; its frames say `[kernel.kallsyms]`, and so
  // does its mapping, as without mmap records.
  if (mmap.pid == -1 && mmap.file.substr(0, kKernel.size()) == kKernel) {
    segment.file = kKernel;
  } else {
    segment.file.assign(mmap.file.data(), mmap.file.size());
  }
  segment.build_id.assign(mmap.build_id.data(), mmap.build_id.size());
  segments.erase(std::remove_if(segments.begin(), segments.end(),
                                [&](const Segment& s) {
                                  return s.start < segment.limit && segment.start < s.limit;
                                }),
                 segments.end());
  segments.push_back(std::move(segment));
}

PerfMappings::Segment* PerfMappings::Find(int64_t pid, int64_t tid, std::string_view dso,
                                          uint64_t address, bool relative, uint64_t* absolute) {
  // The kernel: its map is named `[kernel.kallsyms]_text`, its addresses are absolute.
  if (dso == kKernel) {
    auto it = processes_.find(-1);
    if (it == processes_.end()) return nullptr;
    for (Segment& s : it->second) {
      if (s.file == kKernel && s.start <= address && address < s.limit) {
        *absolute = address;
        return &s;
      }
    }
    return nullptr;
  }
  if (pid < 0) {
    auto known = thread_process_.find(tid);
    pid = known == thread_process_.end() ? tid : known->second;
  }
  auto it = processes_.find(pid);
  if (it == processes_.end()) return nullptr;
  // Newest first: a process that exec'ed keeps the mappings it had before in this table (the
  // text says nothing of the exec), and a relative address means the object mapped last.
  for (auto s_it = it->second.rbegin(); s_it != it->second.rend(); ++s_it) {
    Segment& s = *s_it;
    if (s.file != dso) continue;
    if (s.start <= address && address < s.limit) {
      *absolute = address;
      return &s;
    }
    if (relative && s.offset <= address && address - s.offset < s.limit - s.start) {
      *absolute = address - s.offset + s.start;
      return &s;
    }
  }
  return nullptr;
}

}  // namespace proftools
