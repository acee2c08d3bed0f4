#include "common/io/mapped_input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "common/base/diagnostics.h"
#include "common/io/spool.h"

namespace proftools {
namespace {

// Maps `size` bytes of `fd`; nullptr for an empty file (mmap refuses length 0).
void* MapFd(int fd, size_t size, const std::string& name) {
  if (size == 0) return nullptr;
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) {
    throw ProfError(name, std::string("cannot map the input into memory: ") + std::strerror(errno));
  }
  return data;
}

}  // namespace

MappedInput::MappedInput(Input& input, uint64_t max_spool) {
  if (!input.gzipped && !input.reopen_path.empty()) {
    const int fd = open(input.reopen_path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      size_ = static_cast<size_t>(st.st_size);
      modified_nanos_ = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
      try {
        data_ = MapFd(fd, size_, input.name);
      } catch (...) {
        close(fd);
        throw;
      }
      close(fd);
      return;
    }
    if (fd >= 0) close(fd);
  }
  // A pipe or gzipped content: spooled to disk as it is read, then mapped.
  SpoolFile spool;
  SpoolWriter writer(spool, max_spool, input.name);
  std::string buffer(size_t{1} << 16, '\0');
  uint64_t total = 0;
  for (size_t n; (n = input.stream->Read(buffer.data(), buffer.size())) > 0;) {
    writer.Write(std::string_view(buffer.data(), n));
    total += n;
  }
  writer.Flush();
  size_ = static_cast<size_t>(total);
  data_ = MapFd(spool.fd(), size_, input.name);  // the mapping outlives the descriptor
}

void MappedInput::MoveWindow(uint64_t keep_from, uint64_t reading) {
  if (data_ == nullptr) return;
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  char* base = static_cast<char*>(data_);
  // Read ahead a window at a time (MADV_POPULATE_READ, Linux 5.14: without it, page faults).
  if (reading + kWindowBytes / 2 >= populated_ && populated_ < size_) {
    const uint64_t from = std::max(populated_, reading) / page * page;
    populated_ = std::min<uint64_t>(size_, std::max(populated_, reading) + kWindowBytes);
#ifdef MADV_POPULATE_READ
    madvise(base + from, populated_ - from, MADV_POPULATE_READ);
#endif
  }
  // Let go of whole pages, a window at a time.
  // A window stays behind the reading: the records it holds are still read.
  const uint64_t release_to =
      (keep_from > kWindowBytes ? keep_from - kWindowBytes : 0) / page * page;
  if (release_to >= released_ + kWindowBytes) {
    madvise(base + released_, release_to - released_, MADV_DONTNEED);
    released_ = release_to;
  }
}

void MappedInput::Rewind() {
  if (data_ != nullptr && populated_ > released_) {
    madvise(static_cast<char*>(data_) + released_, populated_ - released_, MADV_DONTNEED);
  }
  populated_ = 0;
  released_ = 0;
}

MappedInput::~MappedInput() {
  if (data_ != nullptr) munmap(data_, size_);
}

}  // namespace proftools
