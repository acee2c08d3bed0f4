// An input read whole into memory, for the readers whose format must be (protobuf, and the JSON
// formats to come), refusing more than a cap so that a gzip bomb or a runaway file stops early.
#ifndef PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_
#define PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/io/input.h"

namespace proftools {

// A growing buffer on malloc/realloc: glibc moves a large block with mremap, so growing it
// neither copies nor holds the old and the new block at once (std::string would do both, and
// briefly need 2.5 times the input).
class WholeInput {
 public:
  WholeInput() = default;
  ~WholeInput();
  WholeInput(const WholeInput&) = delete;
  WholeInput& operator=(const WholeInput&) = delete;

  std::string_view view() const { return std::string_view(data_, size_); }
  size_t size() const { return size_; }
  size_t room() const { return capacity_ - size_; }  // reserved and not yet committed

  // Room for `n` more bytes at the end; Commit(n) then counts them in.
  char* Reserve(size_t n);
  void Commit(size_t n) { size_ += n; }
  void Clear() { size_ = 0; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Reads the rest of `input` (from its first byte) into `data`. More than `cap` bytes (0: no cap)
// is a ProfError naming `what` ("pprof data") and --max-input-size. A gzipped regular file is
// inflated whole with libdeflate, read again from its path; other inputs (and a file whose
// data is corrupt, for zlib's message) through the input's stream.
void ReadWholeInput(Input& input, uint64_t cap, const char* what, WholeInput* data);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_
