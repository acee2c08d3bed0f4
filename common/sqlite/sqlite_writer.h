// Writes a profile into a new SQLite database in the layout of sqlite_schema.h: a ProfileSink,
// so any reader streams into it and memory grows with definitions, not with samples.
//
// Every record gets a new id, numbered per kind in the order records arrive (so reading the
// tables in id order gives the definitions in their input order: unused definitions keep their
// canonical place). Loading is one transaction over prepared statements (rsprof's storage
// chapter §7.4, §7.7), with the journal off: the database is a temporary file no one else sees
// until it is complete and renamed into place. Unlike rsprof's, the file is not left in WAL
// mode: nothing ever writes beside a reader (--append builds a new file too), and a WAL
// database opened read-only leaves -wal and -shm files behind next to it.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_WRITER_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/base/id_table.h"
#include "common/model/sink.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

class SqliteWriter : public ProfileSink {
 public:
  // `db` is a new, empty database; the writer creates the tables and views. Nothing is
  // committed before OnEnd.
  explicit SqliteWriter(SqliteDb* db);
  ~SqliteWriter() override;

  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

 private:
  struct Statements;
  // The database id of a new record of input id `id`: the next of its kind.
  static uint64_t Renumber(IdMap* map, uint64_t id);
  uint64_t Find(const IdMap& map, uint64_t id) const;

  SqliteDb* db_;
  std::unique_ptr<Statements> statements_;
  std::vector<ValueType> types_;
  IdMap sources_, mappings_, functions_, locations_, stacks_;
  uint64_t samples_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_WRITER_H_
