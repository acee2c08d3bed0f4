#include "common/sqlite/temporary_database.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/io/temp_files.h"

namespace proftools {

TemporaryDatabase::TemporaryDatabase() {
  const char* dir = getenv("TMPDIR");
  path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/proftools-db.XXXXXX";
  const int fd = mkostemp(path_.data(), O_CLOEXEC);
  if (fd < 0) {
    throw ProfError(path_,
                    std::string("cannot create a temporary database: ") + std::strerror(errno));
  }
  close(fd);  // SQLite takes an empty file for a new database
  // A copy of a database from standard input, or one written for standard output: removed when
  // a signal ends the program too, not only by the destructor (journals are SQLite's).
  RegisterTemp(path_.c_str());
}

TemporaryDatabase::~TemporaryDatabase() {
  UnregisterTemp(path_.c_str());
  unlink(path_.c_str());
  // Journals SQLite may have left if a failure interrupted it.
  unlink((path_ + "-journal").c_str());
  unlink((path_ + "-wal").c_str());
  unlink((path_ + "-shm").c_str());
}

void TemporaryDatabase::CopyTo(ByteSink* out) const {
  const int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ProfError(path_, std::string("cannot reopen: ") + std::strerror(errno));
  static constexpr size_t kBlock = 1 << 20;
  std::string buffer(kBlock, '\0');
  for (;;) {
    const ssize_t n = read(fd, buffer.data(), kBlock);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      throw ProfError(path_, std::string("cannot read: ") + std::strerror(error));
    }
    if (n == 0) break;
    out->Write(std::string_view(buffer.data(), static_cast<size_t>(n)));
  }
  close(fd);
}

}  // namespace proftools
