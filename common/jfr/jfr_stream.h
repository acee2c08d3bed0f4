// A recording read chunk by chunk from a stream: a chunk is self-contained (its header gives its
// size; its metadata and constant pools are inside it), so only one chunk's bytes are held at a
// time and memory grows with the largest chunk, not with the file.
#ifndef PROFTOOLS_COMMON_JFR_JFR_STREAM_H_
#define PROFTOOLS_COMMON_JFR_JFR_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "common/io/byte_stream.h"
#include "common/jfr/jfr_chunk.h"
#include "common/jfr/jfr_input.h"

namespace proftools {

class JfrChunkReader {
 public:
  // `cap` (0: none) bounds the size of a chunk, the bytes held at once (--max-input-size).
  JfrChunkReader(ByteStream* stream, const std::string& name, uint64_t cap);

  // The next chunk, its header checked (ReadJfrChunk): false at the end of the stream. Errors
  // name the file and the byte.
  bool Next();
  const JfrChunk& chunk() const { return chunk_; }
  // The bytes of the chunk (and maybe a few of the next), valid until the next call of Next.
  const JfrBytes& bytes() const { return bytes_; }
  // Whether the chunk is the file's last.
  bool last() const { return ended_ && size_ == chunk_.end - start_; }

 private:
  // Reads until the buffer holds `size` bytes or the stream ends.
  void Fill(uint64_t size);
  void Reserve(size_t capacity);

  ByteStream* stream_;
  const std::string& name_;
  uint64_t cap_;
  // The file's bytes from start_: the chunk, then what follows it. Not a string: its bytes
  // are read into, never set to zeros first.
  std::unique_ptr<char[]> buffer_;
  size_t size_ = 0, capacity_ = 0;
  uint64_t start_ = 0;
  bool ended_ = false;
  bool have_chunk_ = false;
  JfrChunk chunk_;
  JfrBytes bytes_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_STREAM_H_
