#include "common/jfr/jfr_stream.h"

#include <algorithm>
#include <cstring>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"

namespace proftools {

JfrChunkReader::JfrChunkReader(ByteStream* stream, const std::string& name, uint64_t cap)
    : stream_(stream), name_(name), cap_(cap) {}

void JfrChunkReader::Reserve(size_t capacity) {
  if (capacity <= capacity_) return;
  std::unique_ptr<char[]> grown(new char[capacity]);
  if (size_ > 0) std::memcpy(grown.get(), buffer_.get(), size_);
  buffer_ = std::move(grown);
  capacity_ = capacity;
}

void JfrChunkReader::Fill(uint64_t size) {
  constexpr size_t kRead = size_t{1} << 20;
  while (!ended_ && size_ < size) {
    if (size_ == capacity_) {
      // Room for the whole chunk at once (no copies as it grows), but never more than twice
      // what is held plus 64 MiB: a size in a header is not to be trusted.
      const uint64_t room = std::max<uint64_t>(2 * capacity_, size_ + (uint64_t{64} << 20));
      Reserve(static_cast<size_t>(std::min<uint64_t>(size, room)));
    }
    const size_t want = static_cast<size_t>(std::min<uint64_t>(size - size_, capacity_ - size_));
    const size_t got = stream_->Read(buffer_.get() + size_, std::min(want, kRead));
    size_ += got;
    ended_ = got == 0;
  }
}

bool JfrChunkReader::Next() {
  if (have_chunk_) {  // what follows the chunk becomes the start of the buffer
    const size_t used = static_cast<size_t>(chunk_.end - start_);
    std::memmove(buffer_.get(), buffer_.get() + used, size_ - used);
    size_ -= used;
    start_ = chunk_.end;
  }
  Fill(kJfrChunkHeaderSize);
  if (size_ == 0) return false;
  const std::string_view held(buffer_.get(), size_);
  uint64_t size = size_;
  if (size_ >= kJfrChunkHeaderSize && held.substr(0, 4) == kJfrMagic) {
    size = 0;
    for (int i = 8; i < 16; ++i) size = size << 8 | static_cast<uint8_t>(held[i]);
    if (cap_ != 0 && size > cap_) {
      throw ProfError(name_, "byte " + std::to_string(start_ + 8) + ": a chunk of " +
                                 Counted(size, "byte", "bytes") + ", more than the " +
                                 Counted(cap_, "byte", "bytes") +
                                 " a chunk may hold (raise the limit with --max-input-size)");
    }
  }
  // The chunk and one byte more: whether the file ends with it (then "truncated" can be said).
  Fill(size + 1);
  bytes_.data = std::string_view(buffer_.get(), size_);
  bytes_.base = start_;
  bytes_.file_size = ended_ ? start_ + size_ : JfrBytes::kUnknown;
  chunk_ = ReadJfrChunk(bytes_, name_, start_);
  have_chunk_ = true;
  return true;
}

}  // namespace proftools
