#include "common/rprof_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/diagnostics.h"
#include "common/text_syntax.h"

namespace proftools {
namespace {

// Passes bytes through, counts them, and copies them to a file descriptor (when not -1).
class ScanSource : public ByteStream {
 public:
  ScanSource(ByteStream* inner, int fd, const std::string& name)
      : inner_(inner), fd_(fd), name_(name) {}
  size_t Read(char* buffer, size_t capacity) override {
    const size_t n = inner_->Read(buffer, capacity);
    bytes_ += n;
    size_t written = 0;
    while (fd_ >= 0 && written < n) {
      const ssize_t w = write(fd_, buffer + written, n - written);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        throw ProfError(name_, std::string("cannot spool the input to a temporary file: ") +
                                   std::strerror(errno));
      }
      written += static_cast<size_t>(w);
    }
    return n;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  ByteStream* inner_;
  int fd_;
  const std::string& name_;
  uint64_t bytes_ = 0;
};

}  // namespace

bool RprofPlan::HasMemory() const {
  return std::any_of(sessions.begin(), sessions.end(),
                     [](const RprofSession& s) { return s.header.memory; });
}

RprofPlan ScanRprof(ByteStream* stream, const std::string& name, int spool_fd) {
  ScanSource source(stream, spool_fd, name);
  LineReader lines(&source);
  RprofPlan plan;
  std::string_view line;
  try {
    while (lines.Next(&line)) {
      // Only lines that start with a letter can be headers; everything else is skipped fast.
      const char c = line.empty() ? '\0' : line[0];
      const bool may_be_header = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      RprofSession session;
      if (may_be_header && ParseRprofHeader(line, &session.header)) {
        session.line = lines.line_number();
        plan.sessions.push_back(std::move(session));
      } else if (lines.line_number() == 1) {
        throw ProfError(Diagnostic{Rule::kInput, name, 1,
                                   "not an Rprof file: the first line should be a header such as "
                                   "'sample.interval=20000', found " +
                                       Printable(line)});
      }
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, name, e.line_number,
                               "line longer than 64 MiB: this is not a file written by Rprof()"});
  }
  plan.bytes = source.bytes();
  if (plan.sessions.empty()) {
    throw ProfError(name, "empty input: an Rprof file starts with a header line");
  }
  return plan;
}

SpoolFile::SpoolFile() {
  const char* dir = getenv("TMPDIR");
  std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/rprof2prof-spool.XXXXXX";
  fd_ = mkostemp(path.data(), O_CLOEXEC);
  if (fd_ < 0) {
    throw ProfError(path, std::string("cannot create a spool file: ") + std::strerror(errno));
  }
  unlink(path.c_str());  // nothing is left behind, whatever happens next
}

SpoolFile::~SpoolFile() {
  if (fd_ >= 0) close(fd_);
}

std::unique_ptr<ByteStream> SpoolFile::Reopen(const std::string& name) const {
  if (lseek(fd_, 0, SEEK_SET) != 0) {
    throw ProfError(name, std::string("cannot rewind the spool file: ") + std::strerror(errno));
  }
  return std::make_unique<FdStream>(fd_, name, false);
}

size_t LimitedStream::Read(char* buffer, size_t capacity) {
  if (remaining_ == 0) return 0;
  const size_t n =
      inner_->Read(buffer, static_cast<size_t>(std::min<uint64_t>(capacity, remaining_)));
  remaining_ -= n;
  return n;
}

}  // namespace proftools
