#include "common/jfr/jfr_stream.h"

#include <algorithm>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"

namespace proftools {

JfrChunkReader::JfrChunkReader(ByteStream* stream, const std::string& name, uint64_t cap)
    : stream_(stream), name_(name), cap_(cap) {}

void JfrChunkReader::Fill(uint64_t size) {
  constexpr size_t kRead = size_t{1} << 20;
  while (!ended_ && buffer_.size() < size) {
    const size_t old = buffer_.size();
    if (old + kRead > buffer_.capacity()) {
      // Room for the whole chunk at once (no copies as it grows), but never more than twice
      // what is held plus 64 MiB: a size in a header is not to be trusted.
      const uint64_t room = std::max<uint64_t>(2 * buffer_.capacity(), old + (uint64_t{64} << 20));
      buffer_.reserve(static_cast<size_t>(std::min<uint64_t>(size, room)));
    }
    const size_t want = static_cast<size_t>(std::min<uint64_t>(size - old, kRead));
    buffer_.resize(old + want);
    const size_t got = stream_->Read(&buffer_[old], want);
    buffer_.resize(old + got);
    ended_ = got == 0;
  }
}

bool JfrChunkReader::Next() {
  if (have_chunk_) {  // what follows the chunk becomes the start of the buffer
    buffer_.erase(0, chunk_.end - start_);
    start_ = chunk_.end;
  }
  Fill(kJfrChunkHeaderSize);
  if (buffer_.empty()) return false;
  uint64_t size = buffer_.size();
  if (buffer_.size() >= kJfrChunkHeaderSize &&
      std::string_view(buffer_).substr(0, 4) == kJfrMagic) {
    size = 0;
    for (int i = 8; i < 16; ++i) size = size << 8 | static_cast<uint8_t>(buffer_[i]);
    if (cap_ != 0 && size > cap_) {
      throw ProfError(name_, "byte " + std::to_string(start_ + 8) + ": a chunk of " +
                                 Counted(size, "byte", "bytes") + ", more than the " +
                                 Counted(cap_, "byte", "bytes") +
                                 " a chunk may hold (raise the limit with --max-input-size)");
    }
  }
  // The chunk and one byte more: whether the file ends with it (then "truncated" can be said).
  Fill(size + 1);
  bytes_.data = buffer_;
  bytes_.base = start_;
  bytes_.file_size = ended_ ? start_ + buffer_.size() : JfrBytes::kUnknown;
  chunk_ = ReadJfrChunk(bytes_, name_, start_);
  have_chunk_ = true;
  return true;
}

}  // namespace proftools
