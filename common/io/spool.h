// Reading an input twice. Converters whose output declares, before the first sample, things
// only the whole input tells (value types per event, sessions), read it in two passes: a
// regular file is opened again; a pipe is copied to an unlinked spool file during the first
// pass and the spool is read back. Memory stays bounded either way.
#ifndef PROFTOOLS_COMMON_IO_SPOOL_H_
#define PROFTOOLS_COMMON_IO_SPOOL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/io/byte_stream.h"
#include "common/io/input.h"

namespace proftools {

// Passes bytes through, counts them, and copies them to a file descriptor (when not -1).
// Throws ProfError naming `name` when the copy fails.
class CopyingStream : public ByteStream {
 public:
  CopyingStream(ByteStream* inner, int fd, const std::string& name)
      : inner_(inner), fd_(fd), name_(name) {}
  size_t Read(char* buffer, size_t capacity) override;
  uint64_t bytes() const { return bytes_; }

 private:
  ByteStream* inner_;
  int fd_;
  const std::string& name_;
  uint64_t bytes_ = 0;
};

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

// Writes bytes to a SpoolFile, buffered. Throws ProfError when a write fails.
class SpoolWriter : public ByteSink {
 public:
  explicit SpoolWriter(const SpoolFile& file) : fd_(file.fd()) {}
  void Write(std::string_view data) override;
  // Writes what is buffered; call before reading the spool back.
  void Flush();

 private:
  int fd_;
  std::string buffer_;
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

// One input of a two-pass converter: the first pass reads OpenInput(path) and copies what it
// reads to spool_fd() (-1 when the file itself can be read again); Again() then yields the
// same content from its first byte.
class TwoPassInput {
 public:
  // Creates the spool when `path` is not a regular file (standard input, a pipe).
  explicit TwoPassInput(std::string path);
  int spool_fd() const { return spool_ ? spool_->fd() : -1; }
  // The stream for the second pass, valid as long as this object; `name` is for messages.
  ByteStream* Again(const std::string& name);

 private:
  std::string path_;
  std::unique_ptr<SpoolFile> spool_;
  Input reopened_;
  std::unique_ptr<ByteStream> spooled_;
};

// Whether `path` names a regular file (which can simply be opened again); "-" never does.
bool IsRegularFile(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_SPOOL_H_
