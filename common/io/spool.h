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
#include <utility>

#include "common/io/byte_stream.h"
#include "common/io/input.h"

namespace proftools {

// The default cap on the bytes one input may have copied to a temporary file (a pipe read
// twice, a database from standard input): large enough for a long `perf script` through a pipe,
// small enough that a small gzip bomb cannot fill the disk. --max-input-size sets it
// (ReadContext::max_spool_size).
inline constexpr uint64_t kDefaultMaxSpoolSize = uint64_t{16} << 30;  // 16 GiB

// The error of an input `name` that would have more than `cap` bytes copied to a spool.
[[noreturn]] void SpoolTooLarge(const std::string& name, uint64_t cap);

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

// Writes bytes to a SpoolFile, buffered. Throws ProfError when a write fails, and (SpoolTooLarge,
// naming `name`) when more than `cap` bytes come (0: no cap).
class SpoolWriter : public ByteSink {
 public:
  explicit SpoolWriter(const SpoolFile& file, uint64_t cap = 0, std::string name = "<spool>")
      : fd_(file.fd()), cap_(cap), name_(std::move(name)) {}
  void Write(std::string_view data) override;
  // Writes what is buffered; call before reading the spool back.
  void Flush();

 private:
  int fd_;
  uint64_t cap_;
  std::string name_;
  uint64_t written_ = 0;
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

// Passes the bytes of `inner` through, and throws SpoolTooLarge naming `name` when there are
// more than `cap`: what stands before the copy to a spool.
class SpoolCappedStream : public ByteStream {
 public:
  SpoolCappedStream(std::unique_ptr<ByteStream> inner, uint64_t cap, std::string name)
      : inner_(std::move(inner)), cap_(cap), name_(std::move(name)) {}
  size_t Read(char* buffer, size_t capacity) override;

 private:
  std::unique_ptr<ByteStream> inner_;
  uint64_t cap_;
  std::string name_;
  uint64_t bytes_ = 0;
};

// One input of a two-pass converter: the first pass reads OpenInput(path) and copies what it
// reads to spool_fd() (-1 when the file itself can be read again); Again() then yields the
// same content from its first byte.
class TwoPassInput {
 public:
  // Creates the spool when `path` is not a regular file (standard input, a pipe).
  explicit TwoPassInput(std::string path);
  int spool_fd() const { return spool_ ? spool_->fd() : -1; }
  // When this input is spooled, bounds what `input` (its opened content) yields to `cap` bytes
  // (0: no cap), so that the spool never holds more.
  void CapSpool(Input* input, uint64_t cap) const;
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
// The size of the regular file `path`, 0 when it is not one.
uint64_t FileSize(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_SPOOL_H_
