// The executable mappings of each process, from the PERF_RECORD_MMAP/MMAP2 lines perf script
// prints with `--show-mmap-events`, so that a frame's location gets a real mapping (range, file
// offset, file, build id) and its runtime address, as pprof expects them to symbolise a
// stripped binary later. perf 6.1 prints a call-chain frame's address relative to its object
// (`ip - start + pgoff`) and a one-line sample's address absolute: both are found here.
//
// Mappings are per process; a header shows only the thread id unless perf printed PID/TID, so
// threads are tied to their process by the PID/TID of the mmap records. A new mapping replaces
// the ones of its process that it overlaps (exec, munmap + mmap). The kernel's mappings
// (pid -1) serve every process.
#ifndef PROFTOOLS_COMMON_PERF_PERF_MAPPINGS_H_
#define PROFTOOLS_COMMON_PERF_PERF_MAPPINGS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/perf/perf_records.h"

namespace proftools {

class PerfMappings {
 public:
  struct Segment {
    uint64_t start = 0;
    uint64_t limit = 0;  // one past the end
    uint64_t offset = 0;
    std::string file;
    std::string build_id;
    uint64_t mapping_id = 0;  // the profile's mapping, 0 until the first frame in it
  };

  void Add(const PerfRecordLine& mmap);
  bool empty() const { return processes_.empty(); }

  // The segment holding a frame of thread `tid` (or process `pid`, when >= 0) in object `dso`
  // at `address` (absolute, or relative when `relative` allows it), and the absolute address;
  // nullptr when no mapping holds it.
  Segment* Find(int64_t pid, int64_t tid, std::string_view dso, uint64_t address, bool relative,
                uint64_t* absolute);

 private:
  std::unordered_map<int64_t, std::vector<Segment>> processes_;  // pid (-1: kernel) -> segments
  std::unordered_map<int64_t, int64_t> thread_process_;          // tid -> pid
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_MAPPINGS_H_
