#include "common/io/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"

namespace proftools {

void SpoolTooLarge(const std::string& name, uint64_t cap) {
  throw ProfError(name, "more than " + Counted(cap, "byte", "bytes") +
                            " to copy to a temporary file (an input that is not a regular file is "
                            "copied to be read again): give the file's path instead, or raise the "
                            "limit with --max-input-size");
}

size_t CopyingStream::Read(char* buffer, size_t capacity) {
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

SpoolFile::SpoolFile() {
  const char* dir = getenv("TMPDIR");
  std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/proftools-spool.XXXXXX";
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

void SpoolWriter::Write(std::string_view data) {
  written_ += data.size();
  if (cap_ != 0 && written_ > cap_) SpoolTooLarge(name_, cap_);
  buffer_.append(data);
  if (buffer_.size() >= (size_t{1} << 20)) Flush();
}

void SpoolWriter::Flush() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw ProfError("<spool>", std::string("cannot write the spool file: ") +
                                     std::strerror(n < 0 ? errno : ENOSPC));
    }
    done += static_cast<size_t>(n);
  }
  buffer_.clear();
}

size_t LimitedStream::Read(char* buffer, size_t capacity) {
  if (remaining_ == 0) return 0;
  const size_t n =
      inner_->Read(buffer, static_cast<size_t>(std::min<uint64_t>(capacity, remaining_)));
  remaining_ -= n;
  return n;
}

size_t SpoolCappedStream::Read(char* buffer, size_t capacity) {
  // One byte more than the cap is asked for, so that an input of exactly `cap` bytes passes
  // and one byte more fails (saturated: a cap of 2^64 - 1 is no cap).
  if (bytes_ > cap_) SpoolTooLarge(name_, cap_);
  const uint64_t left = cap_ - bytes_;
  const uint64_t asked = left == UINT64_MAX ? left : left + 1;
  const size_t n = inner_->Read(buffer, static_cast<size_t>(std::min<uint64_t>(capacity, asked)));
  bytes_ += n;
  if (bytes_ > cap_) SpoolTooLarge(name_, cap_);
  return n;
}

TwoPassInput::TwoPassInput(std::string path) : path_(std::move(path)) {
  if (!IsRegularFile(path_)) spool_ = std::make_unique<SpoolFile>();
}

void TwoPassInput::CapSpool(Input* input, uint64_t cap) const {
  if (spool_ == nullptr || cap == 0) return;
  input->stream = std::make_unique<SpoolCappedStream>(std::move(input->stream), cap, input->name);
}

ByteStream* TwoPassInput::Again(const std::string& name) {
  if (spool_ == nullptr) {
    reopened_ = OpenInput(path_);
    return reopened_.stream.get();
  }
  spooled_ = spool_->Reopen(name);
  return spooled_.get();
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

uint64_t FileSize(const std::string& path) {
  struct stat st;
  if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

}  // namespace proftools
