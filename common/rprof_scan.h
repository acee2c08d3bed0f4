// The first pass over an Rprof file: find every profiling session (each `Rprof()` run writes a
// header line; `Rprof(append = TRUE)` adds one in the middle of the file) before any sample is
// converted, because a profile declares its sources and value types before its first sample.
//
// A regular file is scanned and then read again; a pipe is copied to a spool file while it is
// scanned, and the spool is read back. Memory stays bounded by the number of sessions.
#ifndef PROFTOOLS_COMMON_RPROF_SCAN_H_
#define PROFTOOLS_COMMON_RPROF_SCAN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/byte_stream.h"
#include "common/rprof_syntax.h"

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

// An unlinked temporary file (in $TMPDIR, else /tmp) for spooling a pipe; closed on
// destruction. Throws ProfError when it cannot be created.
class SpoolFile {
 public:
  SpoolFile();
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;
  int fd() const { return fd_; }
  // A stream over the spooled bytes from the start.
  std::unique_ptr<ByteStream> Reopen(const std::string& name) const;

 private:
  int fd_ = -1;
};

// Reads at most `limit` bytes of `inner` (which it does not own).
class LimitedStream : public ByteStream {
 public:
  LimitedStream(ByteStream* inner, uint64_t limit) : inner_(inner), remaining_(limit) {}
  size_t Read(char* buffer, size_t capacity) override;

 private:
  ByteStream* inner_;
  uint64_t remaining_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_RPROF_SCAN_H_
