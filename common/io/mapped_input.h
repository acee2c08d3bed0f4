// An input's whole content as bytes in memory without reading it into the heap: a regular file
// (not gzipped) is mapped read-only; anything else (a pipe, standard input, gzipped content) is
// copied to an unlinked spool file first, which is then mapped. For binary formats read by
// offset (perf.data: its header points at sections anywhere in the file). The pages are the
// kernel's page cache, so the program's own memory does not grow with the input.
#ifndef PROFTOOLS_COMMON_IO_MAPPED_INPUT_H_
#define PROFTOOLS_COMMON_IO_MAPPED_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/io/input.h"

namespace proftools {

class MappedInput {
 public:
  // Maps `input` (from its first byte). Throws ProfError naming the input when it cannot.
  // A pipe or gzipped content is first copied to a spool of at most `max_spool` bytes (0: no
  // cap; SpoolTooLarge beyond).
  MappedInput(Input& input, uint64_t max_spool);
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;

  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

  // Keeps only a window of the input resident, so that the program's resident memory does not
  // grow with the input: the pages before `keep_from` are let go (read again from the file,
  // should they be needed), and those from `reading` on are read in ahead, a window at a time
  // (one system call instead of a page fault each). A reader calls it as it goes.
  void Window(uint64_t keep_from, uint64_t reading) {
    // The common case, inline: inside the window, nothing to do.
    if (reading + kWindowBytes / 2 < populated_ && keep_from < released_ + 2 * kWindowBytes) {
      return;
    }
    MoveWindow(keep_from, reading);
  }
  static constexpr uint64_t kWindowBytes = uint64_t{16} << 20;
  // Lets the whole input go, for another pass from its start.
  void Rewind();
  // The file's modification time, for a regular file (what `perf report --header` calls the
  // time the recording was captured).
  std::optional<int64_t> modified_nanos() const { return modified_nanos_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
  std::optional<int64_t> modified_nanos_;
  void MoveWindow(uint64_t keep_from, uint64_t reading);
  uint64_t populated_ = 0;  // read in up to here
  uint64_t released_ = 0;   // let go below here
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_MAPPED_INPUT_H_
