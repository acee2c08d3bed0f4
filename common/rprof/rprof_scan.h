// The first pass over an Rprof file: find every profiling session (each `Rprof()` run writes a
// header line; `Rprof(append = TRUE)` adds one in the middle of the file) before any sample is
// converted, because a profile declares its sources and value types before its first sample.
//
// The two passes use common/spool.h. Memory stays bounded by the number of sessions.
#ifndef PROFTOOLS_COMMON_RPROF_RPROF_SCAN_H_
#define PROFTOOLS_COMMON_RPROF_RPROF_SCAN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/io/spool.h"
#include "common/rprof/rprof_syntax.h"

namespace proftools {

struct RprofSession {
  RprofHeader header;
  uint64_t line = 0;  // 1-based line number of the header
};

struct RprofPlan {
  std::vector<RprofSession> sessions;  // in file order; the first is on line 1
  uint64_t bytes = 0;                  // bytes scanned: the second pass reads no further
  bool HasMemory() const;
};

// Scans `stream` (the decompressed content of input `name`). When `spool_fd` is not -1, every
// byte read is also written to it. Throws ProfError when line 1 is not an Rprof header or a
// line is longer than LineReader's limit.
RprofPlan ScanRprof(ByteStream* stream, const std::string& name, int spool_fd = -1);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_RPROF_RPROF_SCAN_H_
