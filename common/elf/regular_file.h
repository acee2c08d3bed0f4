// Opening a file a recording names (a library in a perf.data or V8 log, an executable given to
// gprof2prof) only when it is a regular file: a FIFO or a device must not block or be read.
#ifndef PROFTOOLS_COMMON_ELF_REGULAR_FILE_H_
#define PROFTOOLS_COMMON_ELF_REGULAR_FILE_H_

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace proftools {

// A read-only descriptor of `path`, or -1 when it cannot be opened or is not a regular file.
inline int OpenRegularFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_REGULAR_FILE_H_
