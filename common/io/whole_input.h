// An input read whole into memory, for the readers whose format must be (protobuf, and the JSON
// formats to come), refusing more than a cap so that a gzip bomb or a runaway file stops early.
#ifndef PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_
#define PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

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
  void Swap(WholeInput& other) {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Reads the rest of `input` (from its first byte) into `data`. More than `cap` bytes (0: no cap)
// is a ProfError naming `what` ("pprof data") and --max-input-size. A small gzipped file
// inflated when it was opened (Input::inflated) is taken as it is; a larger gzipped regular file
// is inflated whole with libdeflate, read again from its path; other inputs (and a file whose
// data is corrupt, for zlib's message) through the input's stream.
void ReadWholeInput(Input& input, uint64_t cap, const char* what, WholeInput* data);

// The content of the gzip file at `path` (OpenInput calls it for a regular file of at most
// kSmallGzipFile bytes), inflated whole, when it is at most `cap` bytes and inflates cleanly;
// null otherwise (then it is read as a stream, which says what is wrong with it).
inline constexpr uint64_t kSmallGzipFile = uint64_t{1} << 20;
std::shared_ptr<WholeInput> InflateSmallFile(const std::string& path, uint64_t cap);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_WHOLE_INPUT_H_
