// The file a new database is built in, or a database read from a pipe is copied to: a named
// temporary file (SQLite opens databases by name)
// in $TMPDIR, else /tmp, removed when this object goes, whatever happens. Once the database is
// complete and closed, its bytes are copied to the program's Output, which writes them
// atomically wherever -o says (or to standard output): the output never holds half a database.
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
