#include "common/io/mapped_input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

MappedInput::MappedInput(Input& input) {
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
  SpoolWriter writer(spool);
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

MappedInput::~MappedInput() {
  if (data_ != nullptr) munmap(data_, size_);
}

}  // namespace proftools
