#include "common/io/byte_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {

void WidenPipe(int fd) {
#ifdef F_SETPIPE_SZ
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
  (void)fd;
#endif
}

FdStream::FdStream(int fd, std::string name, bool owned)
    : fd_(fd), name_(std::move(name)), owned_(owned) {
  WidenPipe(fd_);
}

FdStream::~FdStream() {
  if (owned_ && fd_ >= 0) close(fd_);
}

size_t FdStream::Read(char* buffer, size_t capacity) {
  if (at_end_) return 0;
  while (true) {
    const ssize_t n = read(fd_, buffer, capacity);
    if (n == 0 && capacity > 0) at_end_ = true;
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    throw ProfError(name_, std::string("read error: ") + std::strerror(errno));
  }
}

FileRangeStream::FileRangeStream(const std::string& path, uint64_t begin, uint64_t end)
    : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)), path_(path), position_(begin), end_(end) {
  if (fd_ < 0) throw ProfError(path, std::string("cannot open: ") + std::strerror(errno));
}

FileRangeStream::~FileRangeStream() {
  close(fd_);
}

size_t FileRangeStream::Read(char* buffer, size_t capacity) {
  if (position_ >= end_) return 0;
  const size_t want = static_cast<size_t>(std::min<uint64_t>(capacity, end_ - position_));
  while (true) {
    const ssize_t n = pread(fd_, buffer, want, static_cast<off_t>(position_));
    if (n >= 0) {
      // A file that shrank: its end comes early.
      if (n == 0) end_ = position_;
      position_ += static_cast<uint64_t>(n);
      return static_cast<size_t>(n);
    }
    if (errno == EINTR) continue;
    throw ProfError(path_, std::string("read error: ") + std::strerror(errno));
  }
}

size_t MemoryStream::Read(char* buffer, size_t capacity) {
  const size_t n = std::min(capacity, data_.size() - position_);
  std::memcpy(buffer, data_.data() + position_, n);
  position_ += n;
  return n;
}

PrefixedStream::PrefixedStream(std::string prefix, std::unique_ptr<ByteStream> rest)
    : prefix_(std::move(prefix)), rest_(std::move(rest)) {}

size_t PrefixedStream::Read(char* buffer, size_t capacity) {
  if (position_ < prefix_.size()) {
    const size_t n = std::min(capacity, prefix_.size() - position_);
    std::memcpy(buffer, prefix_.data() + position_, n);
    position_ += n;
    if (position_ == prefix_.size()) std::string().swap(prefix_), position_ = 0;
    return n;
  }
  return rest_->Read(buffer, capacity);
}

bool LooksGzipped(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

struct GzipStream::State {
  std::unique_ptr<ByteStream> compressed;
  std::string name;
  uint64_t max_output;
  uint64_t produced = 0;
  z_stream z{};
  bool initialized = false;
  bool member_done = false;  // the last member ended; more input may start a new one
  bool input_eof = false;
  char input[1 << 16];
};

GzipStream::GzipStream(std::unique_ptr<ByteStream> compressed, std::string name,
                       uint64_t max_output)
    : state_(new State) {
  state_->compressed = std::move(compressed);
  state_->name = std::move(name);
  state_->max_output = max_output;
  if (inflateInit2(&state_->z, 16 + MAX_WBITS) != Z_OK) {
    throw ProfError(state_->name, "gzip: cannot initialise zlib");
  }
  state_->initialized = true;
}

GzipStream::~GzipStream() {
  if (state_->initialized) inflateEnd(&state_->z);
}

size_t GzipStream::Read(char* buffer, size_t capacity) {
  State& s = *state_;
  z_stream& z = s.z;
  z.next_out = reinterpret_cast<Bytef*>(buffer);
  z.avail_out = static_cast<uInt>(std::min<size_t>(capacity, 1u << 30));
  while (z.avail_out > 0) {
    if (z.avail_in == 0 && !s.input_eof) {
      const size_t n = s.compressed->Read(s.input, sizeof s.input);
      if (n == 0) {
        s.input_eof = true;
      } else {
        z.next_in = reinterpret_cast<Bytef*>(s.input);
        z.avail_in = static_cast<uInt>(n);
      }
    }
    if (z.avail_in == 0 && s.input_eof) {
      if (s.member_done) break;  // clean end after a complete member
      throw ProfError(s.name, "gzip: unexpected end of data (the file is truncated)");
    }
    if (s.member_done) {
      // Another gzip member follows the previous one.
      inflateReset(&z);
      s.member_done = false;
    }
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      s.member_done = true;
    } else if (rc == Z_BUF_ERROR) {
      continue;  // needs more input; loop reads it
    } else if (rc != Z_OK) {
      throw ProfError(s.name, std::string("gzip: corrupt data (") +
                                  (z.msg != nullptr ? z.msg : "inflate failed") + ")");
    }
    if (reinterpret_cast<char*>(z.next_out) != buffer && s.member_done) break;
  }
  const size_t produced = static_cast<size_t>(reinterpret_cast<char*>(z.next_out) - buffer);
  s.produced += produced;
  if (s.max_output != 0 && s.produced > s.max_output) {
    throw ProfError(s.name, "gzip: data inflates to more than " + std::to_string(s.max_output) +
                                " bytes; refusing it (raise the limit with --max-inflate)");
  }
  return produced;
}

LineReader::LineTooLong::LineTooLong(const std::string& name, uint64_t line, size_t max_line)
    : ProfError(Diagnostic{Rule::kLineTooLong, name, line,
                           "line is longer than " + std::to_string(max_line) + " bytes"}),
      line_number(line) {}

LineReader::LineReader(ByteStream* stream, size_t max_line, std::string name)
    : stream_(stream), max_line_(max_line), name_(std::move(name)) {}

LineReader::LineReader(std::string_view text, uint64_t lines_before, size_t max_line,
                       std::string name)
    : stream_(nullptr),
      max_line_(max_line),
      name_(std::move(name)),
      data_(text.data()),
      end_(text.size()),
      eof_(true),
      line_number_(lines_before) {}

void LineReader::Grow() {
  size_t grown = capacity_ == 0 ? kFirstChunk : capacity_ * 2;
  if (grown > max_line_ + 2) grown = max_line_ + 2;
  if (grown <= capacity_) {
    if (end_ == capacity_) throw LineTooLong(name_, line_number_ + 1, max_line_);
    return;  // full size already: the room comes from consumed lines
  }
  std::unique_ptr<char[]> bigger(new char[grown]);
  if (end_ > 0) std::memcpy(bigger.get(), buffer_.get(), end_);
  buffer_ = std::move(bigger);
  data_ = buffer_.get();
  capacity_ = grown;
}

bool LineReader::Fill() {
  if (eof_) return false;
  // Move the unconsumed tail to the front, growing the buffer when a line fills it.
  const size_t pending = end_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, pending);
    begin_ = 0;
    end_ = pending;
  }
  if (end_ == capacity_ || (last_read_filled_ && capacity_ < kReadChunk)) Grow();
  const size_t room = capacity_ - end_;
  const size_t n = stream_->Read(buffer_.get() + end_, room);
  if (n == 0) {
    eof_ = true;
    return false;
  }
  last_read_filled_ = n == room;
  end_ += n;
  return true;
}

bool LineReader::Next(std::string_view* line) {
  size_t scanned = begin_;
  while (true) {
    const char* base = data_;
    // (No buffer before the first Fill: memchr must not see a null pointer.)
    const void* found =
        end_ > scanned ? std::memchr(base + scanned, '\n', end_ - scanned) : nullptr;
    if (found != nullptr) {
      const size_t newline = static_cast<size_t>(static_cast<const char*>(found) - base);
      size_t length = newline - begin_;
      if (length > max_line_) throw LineTooLong(name_, line_number_ + 1, max_line_);
      if (length > 0 && base[newline - 1] == '\r') --length;
      *line = std::string_view(base + begin_, length);
      begin_ = newline + 1;
      ++line_number_;
      had_newline_ = true;
      return true;
    }
    if (end_ - begin_ > max_line_) throw LineTooLong(name_, line_number_ + 1, max_line_);
    const size_t tail = end_ - begin_;
    if (!Fill()) {
      if (end_ == begin_) return false;
      *line = std::string_view(data_ + begin_, end_ - begin_);
      begin_ = end_;
      ++line_number_;
      had_newline_ = false;
      return true;
    }
    // Fill may have moved the data to the front; resume scanning after what was already seen.
    scanned = begin_ + tail;
  }
}

}  // namespace proftools
