// perf script's side-band records, printed as `COMM TID [CPU] TIME: PERF_RECORD_KIND ...` with
// `--show-mmap-events`, `--show-switch-events`, `--show-task-events` and the like. Two kinds
// matter to a profile: the executable mappings (PERF_RECORD_MMAP and MMAP2: range, file offset,
// file and build id), which make pprof mappings real, and context switches (PERF_RECORD_SWITCH
// IN/OUT) and exits (PERF_RECORD_EXIT, --show-task-events), which bound a thread's time off the
// CPU. The other kinds are recognised and ignored.
#ifndef PROFTOOLS_COMMON_PERF_PERF_RECORDS_H_
#define PROFTOOLS_COMMON_PERF_PERF_RECORDS_H_

#include <cstdint>
#include <string_view>

#include "common/perf/perf_script.h"

namespace proftools {

struct PerfRecordLine {
  enum class Kind { kMmap, kSwitchIn, kSwitchOut, kExit, kOther };
  Kind kind = Kind::kOther;
  PerfHeader header;  // comm, thread, cpu and time as for a sample; event and rest empty
  // kMmap: `PID/TID: [0xSTART(0xLEN) @ PGOFF (<BUILD_ID> | MAJ:MIN INO GEN)]: PROT FILE`.
  int64_t pid = 0;  // -1: the kernel's mappings, shared by every process (kExit: the exiting
  int64_t tid = 0;  // thread's ids)
  uint64_t start = 0;
  uint64_t length = 0;
  uint64_t pgoff = 0;
  std::string_view build_id;  // hex, empty when perf printed none
  std::string_view file;
};

// Parses a side-band record line. False when the line is not one (a record whose known kind
// has a body that does not parse is not one either).
bool ParsePerfRecord(std::string_view line, PerfRecordLine* out);

// Whether a trimmed line may be a side-band record: it holds `PERF_RECORD_` (cheap, for the
// classification of lines).
bool MayBePerfRecord(std::string_view trimmed);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_RECORDS_H_
