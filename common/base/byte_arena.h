// Bytes kept for the life of a table, in 1 MiB blocks that never move once filled: views into
// them stay valid (hash indexes hold such views), nothing is copied when the total grows, and
// there is no allocation per item. For millions of small items (encoded stacks, aggregation
// keys).
#ifndef PROFTOOLS_COMMON_BASE_BYTE_ARENA_H_
#define PROFTOOLS_COMMON_BASE_BYTE_ARENA_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace proftools {

class ByteArena {
 public:
  // Room for up to `most` bytes, to be followed by Commit of what was used.
  char* Reserve(size_t most) {
    if (block_size_ - used_ < most) {
      // Blocks double from a small first one up to kBlock: a small input's table (a call graph
      // of a few functions) takes a few KiB, not a fresh 1 MiB mapping (under AddressSanitizer,
      // most of a fuzz run's time).
      next_block_ = block_size_ == 0 ? kFirstBlock : std::min(kBlock, 2 * next_block_);
      block_size_ = std::max(next_block_, most);
      // Not make_unique<char[]>: that zeroes the block, which the caller overwrites anyway.
      blocks_.emplace_back(new char[block_size_]);
      used_ = 0;
    }
    return blocks_.back().get() + used_;
  }
  void Commit(size_t used) { used_ += used; }

  // A kept copy of `bytes`.
  std::string_view Store(std::string_view bytes) {
    if (bytes.empty()) return std::string_view();
    char* at = Reserve(bytes.size());
    std::memcpy(at, bytes.data(), bytes.size());
    Commit(bytes.size());
    return std::string_view(at, bytes.size());
  }
  // Gives back the bytes of the last Store (when they turned out not to be needed).
  void Unstore(std::string_view last) { used_ -= last.size(); }

 private:
  static constexpr size_t kFirstBlock = size_t{4} << 10;
  static constexpr size_t kBlock = size_t{1} << 20;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t used_ = 0, block_size_ = 0, next_block_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_BYTE_ARENA_H_
