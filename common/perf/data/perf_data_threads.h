// What perf knows of the recorded machine at a point of the recording, from the side-band
// records in time order: each process's executable mappings (MMAP, MMAP2; FORK copies a new
// process's from its parent; a new mapping replaces what it overlaps), each thread's command
// name (COMM; a new thread starts with its parent's) and process, and the kernel's mappings
// (pid -1), shared by every process.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_THREADS_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_THREADS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace proftools {

struct PerfMap {
  uint64_t start = 0;
  uint64_t limit = 0;  // one past the end
  uint64_t pgoff = 0;
  std::string file;
  std::string build_id;     // from MMAP2, when perf put it there; else ""
  uint64_t mapping_id = 0;  // the profile's, 0 until a frame is in it
};

class PerfThreads {
 public:
  static constexpr int64_t kKernel = -1;  // the kernel's "process"

  void Mmap(int64_t pid, PerfMap map);
  void Comm(int64_t pid, int64_t tid, std::string comm);
  void Fork(int64_t pid, int64_t ppid, int64_t tid, int64_t ptid);

  // The thread's command name: its last COMM, else "swapper" for the idle task (tid 0) and
  // ":TID" for others, as perf names threads it saw no COMM for.
  const std::string& CommOf(int64_t tid);
  // The process of a thread, from its records; the thread id itself when none said.
  int64_t ProcessOf(int64_t tid) const;
  // The mapping of process `pid` (kKernel for the kernel) holding `address`; null when none.
  PerfMap* Find(int64_t pid, uint64_t address);

 private:
  using Maps = std::map<uint64_t, std::shared_ptr<PerfMap>>;  // by start
  std::unordered_map<int64_t, Maps> processes_;
  std::unordered_map<int64_t, std::string> comms_;
  std::unordered_map<int64_t, int64_t> thread_process_;
  std::string scratch_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_THREADS_H_
