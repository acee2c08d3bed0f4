// A thin RAII layer over the SQLite C API: a connection and prepared statements whose failures
// throw ProfError naming the database file, so the codec above reads like the SQL it runs.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_DB_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_DB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace proftools {

class SqliteDb {
 public:
  enum class Mode { kReadOnly, kCreate };
  // Opens `path` (`name` is how messages call it): for kReadOnly a "file:" URI, which never
  // writes and waits at most a second for a lock held by a writer; for kCreate a path, an
  // empty or new file.
  SqliteDb(const std::string& path, std::string name, Mode mode);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs statements that return no rows.
  void Exec(const std::string& sql);
  // Whether the schema has a table or view of that name.
  bool HasTable(const std::string& name);
  // What the schema's object of that name is: a plain table is what a profile's tables must be
  // (a view or a virtual table would run any query a database's author wrote, an endless one).
  enum class ObjectKind { kNone, kTable, kView, kVirtualTable, kOther };
  ObjectKind KindOf(const std::string& name);
  // Bounds the work of the statements from now on to about `instructions` of SQLite's virtual
  // machine in all; past it the running statement is interrupted and fails saying so. For a
  // stranger's database: our queries over plain tables take work in proportion to its size, so
  // a budget in proportion to it stops whatever else a crafted file could make them do.
  void LimitWork(uint64_t instructions);
  // Throws the error `code` means, as a message naming the database and what was being done.
  [[noreturn]] void Fail(int code, const std::string& doing) const;

  sqlite3* handle() const { return db_; }
  const std::string& name() const { return name_; }

 private:
  sqlite3* db_ = nullptr;
  std::string name_;
  uint64_t work_budget_ = 0;  // LimitWork's, in progress-handler calls
  uint64_t work_calls_ = 0;
};

class SqliteStatement {
 public:
  SqliteStatement(SqliteDb* db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Parameters count from 1, as in SQLite.
  void BindInt(int index, int64_t value);
  void BindText(int index, std::string_view text);
  void BindNull(int index);
  void BindOptional(int index, const std::optional<int64_t>& value) {
    value ? BindInt(index, *value) : BindNull(index);
  }
  // Steps once: true when a row is available, false when done.
  bool Step();
  // Runs an INSERT (or any statement without rows) with the bound parameters, then resets.
  void Run();
  void Reset();

  // Columns count from 0. Text keeps every byte, NULs included.
  bool IsNull(int column) const;
  bool IsInteger(int column) const;
  int64_t Int(int column) const;
  // An INTEGER or REAL column (IsNumber) as a double.
  bool IsNumber(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;
  // The column's storage class as SQL names it ("integer", "text", ...), for messages.
  const char* TypeName(int column) const;

 private:
  SqliteDb* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_DB_H_
