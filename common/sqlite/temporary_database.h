// The file a new database is built in, or a database read from a pipe is copied to: a named
// temporary file (SQLite opens databases by name)
// in $TMPDIR, else /tmp, removed when this object goes, whatever happens. For an output that is
// not a file of its own (standard output, a device), the complete, closed database's bytes are
// copied there: the output never holds half a database. (A file -o names is built in Output's
// own temporary file instead, next to it, and renamed into place.)
#ifndef PROFTOOLS_COMMON_SQLITE_TEMPORARY_DATABASE_H_
#define PROFTOOLS_COMMON_SQLITE_TEMPORARY_DATABASE_H_

#include <string>

#include "common/io/byte_stream.h"

namespace proftools {

class TemporaryDatabase {
 public:
  TemporaryDatabase();
  ~TemporaryDatabase();
  TemporaryDatabase(const TemporaryDatabase&) = delete;
  TemporaryDatabase& operator=(const TemporaryDatabase&) = delete;

  const std::string& path() const { return path_; }
  // Copies the file's bytes to `out`. Call after the database is closed.
  void CopyTo(ByteSink* out) const;

 private:
  std::string path_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_TEMPORARY_DATABASE_H_
