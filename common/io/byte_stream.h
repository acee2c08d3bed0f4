// Byte streams in and out: files and stdin, memory, transparent gunzip, and a line splitter.
//
// Errors (I/O, corrupt gzip) are thrown as ProfError naming the stream.
#ifndef PROFTOOLS_COMMON_IO_BYTE_STREAM_H_
#define PROFTOOLS_COMMON_IO_BYTE_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/diagnostics.h"

namespace proftools {

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Reads up to `capacity` bytes into `buffer`; returns 0 only at the end of the stream.
  virtual size_t Read(char* buffer, size_t capacity) = 0;
};

// Reads a file descriptor (retrying on EINTR). Closes it on destruction when `owned`.
// Widens a pipe's kernel buffer (Linux F_SETPIPE_SZ) to 1 MiB when `fd` is a pipe; does nothing
// otherwise or when the system refuses. With the default 64 KiB, two programs in a pipeline
// moving hundreds of MB hand over the CPU every 64 KiB.
void WidenPipe(int fd);

class FdStream : public ByteStream {
 public:
  FdStream(int fd, std::string name, bool owned);
  ~FdStream() override;
  FdStream(const FdStream&) = delete;
  FdStream& operator=(const FdStream&) = delete;
  size_t Read(char* buffer, size_t capacity) override;

 private:
  int fd_;
  std::string name_;
  bool owned_;
  // A terminal's end of file (Ctrl-D) is one read of 0 bytes, not a state: a later read waits
  // for more typing. Remembering it makes one Ctrl-D end the input, as it does for cat.
  bool at_end_ = false;
};

// Reads bytes held in memory (tests, sniffed prefixes).
// Reads bytes [begin, end) of the file `path` (opened anew: several can read one file at once,
// each its part). Throws ProfError when it cannot be opened or read.
class FileRangeStream : public ByteStream {
 public:
  FileRangeStream(const std::string& path, uint64_t begin, uint64_t end);
  ~FileRangeStream() override;
  FileRangeStream(const FileRangeStream&) = delete;
  FileRangeStream& operator=(const FileRangeStream&) = delete;
  size_t Read(char* buffer, size_t capacity) override;

 private:
  int fd_;
  std::string path_;
  uint64_t position_, end_;
};

class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::string data) : data_(std::move(data)) {}
  size_t Read(char* buffer, size_t capacity) override;

 private:
  std::string data_;
  size_t position_ = 0;
};

// Replays `prefix` (bytes already read for sniffing), then continues with `rest`.
class PrefixedStream : public ByteStream {
 public:
  PrefixedStream(std::string prefix, std::unique_ptr<ByteStream> rest);
  size_t Read(char* buffer, size_t capacity) override;

 private:
  std::string prefix_;
  size_t position_ = 0;
  std::unique_ptr<ByteStream> rest_;
};

// Inflates a gzip stream (several concatenated members are read as one, like zcat). When
// `max_output` is not 0, inflating more than that many bytes is an error: the defence against
// gzip bombs for consumers that must hold the data in memory.
class GzipStream : public ByteStream {
 public:
  GzipStream(std::unique_ptr<ByteStream> compressed, std::string name, uint64_t max_output = 0);
  ~GzipStream() override;
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;
  size_t Read(char* buffer, size_t capacity) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// True when `data` starts with the gzip magic bytes.
bool LooksGzipped(std::string_view data);

// Splits a stream into lines without copying them when possible. A line is returned without its
// LF and without a CR just before the LF.
class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = size_t{64} << 20;  // 64 MiB, formats/prof-text.md §2.1

  // `name` names the stream in LineTooLong's message.
  explicit LineReader(ByteStream* stream, size_t max_line = kDefaultMaxLine, std::string name = "");
  // Over bytes already in memory, which must outlive the reader: the lines returned are views
  // of `text` itself (no copy, valid as long as it), numbered from `lines_before` + 1.
  LineReader(std::string_view text, uint64_t lines_before, size_t max_line = kDefaultMaxLine,
             std::string name = "");

  // Returns the next line, or false at the end of the stream. The view stays valid until the
  // next call. Throws LineTooLong when a line exceeds the maximum.
  bool Next(std::string_view* line);

  // 1-based number of the line last returned.
  uint64_t line_number() const { return line_number_; }
  // Whether the line last returned ended with an LF (false only for a final unterminated line).
  bool had_newline() const { return had_newline_; }
  // Bytes allocated for the buffer (grows with the input's reads and lines).
  size_t buffer_capacity() const { return capacity_; }

  // A located input error (rule line-too-long); readers catch it to say what the file is not.
  class LineTooLong : public ProfError {
   public:
    LineTooLong(const std::string& name, uint64_t line, size_t max_line);
    uint64_t line_number;
  };

 private:
  bool Fill();
  // Makes room for more bytes: the first buffer is small (a short input should not cost
  // 1 MiB), it doubles while reads fill it up to kReadChunk, and beyond that only for a line
  // longer than the buffer.
  void Grow();

  static constexpr size_t kFirstChunk = size_t{16} << 10;
  static constexpr size_t kReadChunk = size_t{1} << 20;

  ByteStream* stream_;
  size_t max_line_;
  std::string name_;
  std::unique_ptr<char[]> buffer_;
  const char* data_ = nullptr;  // buffer_, or the text of a reader over memory
  size_t capacity_ = 0;
  bool last_read_filled_ = false;  // the last Read filled all the room there was
  size_t begin_ = 0;               // start of unconsumed data
  size_t end_ = 0;                 // end of valid data
  bool eof_ = false;
  uint64_t line_number_ = 0;
  bool had_newline_ = true;
};

// Where output bytes go.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void Write(std::string_view data) = 0;
};

class StringSink : public ByteSink {
 public:
  void Write(std::string_view data) override { text_.append(data.data(), data.size()); }
  const std::string& text() const { return text_; }
  std::string& text() { return text_; }

 private:
  std::string text_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_BYTE_STREAM_H_
