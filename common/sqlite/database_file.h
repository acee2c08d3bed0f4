// The database file of a program's input: a path or "-" (standard input). SQLite needs a file
// it can open by name, so anything but a regular file (standard input, a pipe, gzipped) is first
// copied to a temporary file (removed when this object goes). The first bytes are checked before
// SQLite sees the file, so that a profile or anything else given by mistake gets a message saying
// what it is.
#ifndef PROFTOOLS_COMMON_SQLITE_DATABASE_FILE_H_
#define PROFTOOLS_COMMON_SQLITE_DATABASE_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "common/io/input.h"
#include "common/sqlite/sqlite_db.h"
#include "common/sqlite/temporary_database.h"

namespace proftools {

class DatabaseFile {
 public:
  // Throws ProfError when the input cannot be read or is not a SQLite database. Standard input
  // or a pipe is copied to a temporary database of at most `max_copy` bytes (0: no cap).
  DatabaseFile(const std::string& path, uint64_t max_copy);
  // The same for an input already opened (its stream read from the first byte).
  DatabaseFile(Input input, uint64_t max_copy);
  // A read-only connection.
  std::unique_ptr<SqliteDb> Open() const;
  // The name for messages ("<stdin>" for "-").
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::string uri_;  // what SQLite opens
  std::unique_ptr<TemporaryDatabase> copy_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_DATABASE_FILE_H_
