// Reading a database's tables as a profile: a query over one table whose column accessors check
// the types and ranges a layout expects and throw messages naming the table and the row, shared
// by the layouts this folder reads (prof2sqlite's, sqlite_reader; rsprof's, rsprof_reader).
#ifndef PROFTOOLS_COMMON_SQLITE_TABLE_READER_H_
#define PROFTOOLS_COMMON_SQLITE_TABLE_READER_H_

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

// One query over one table, with what messages need to name the row being read.
class TableReader {
 public:
  // `writer` names the program whose layout the query expects, for the message when the table
  // has other columns.
  TableReader(SqliteDb* db, const char* table, const std::string& sql,
              const char* writer = "prof2sqlite")
      : db_(db), table_(table), query_(Prepare(db, table, sql, writer)) {}

  bool Next() { return query_.Step(); }
  // Names the current row in messages ("function_id 3").
  void SetRow(std::string row) { row_ = std::move(row); }

  [[noreturn]] void Fail(const std::string& what) const {
    throw ProfError(db_->name(), "table " + std::string(table_) +
                                     (row_.empty() ? "" : ", row " + row_) + ": " + what);
  }

  // An INTEGER column, NOT NULL.
  int64_t Int(int column, const char* name) {
    if (!query_.IsInteger(column)) {
      Fail(std::string(name) + " is " + query_.TypeName(column) + ", not an integer");
    }
    return query_.Int(column);
  }
  std::optional<int64_t> OptionalInt(int column, const char* name) {
    if (query_.IsNull(column)) return std::nullopt;
    return Int(column, name);
  }
  int64_t NonNegative(int column, const char* name) {
    const int64_t value = Int(column, name);
    if (value < 0) Fail(std::string(name) + " is negative (" + std::to_string(value) + ")");
    return value;
  }
  std::optional<int64_t> OptionalNonNegative(int column, const char* name) {
    if (query_.IsNull(column)) return std::nullopt;
    return NonNegative(column, name);
  }
  // Seconds since the epoch as a REAL (or INTEGER), to the nearest nanosecond; NULL: none.
  std::optional<int64_t> OptionalSeconds(int column, const char* name) {
    if (query_.IsNull(column)) return std::nullopt;
    if (!query_.IsNumber(column)) {
      Fail(std::string(name) + " is " + query_.TypeName(column) + ", not a number");
    }
    const double seconds = query_.Double(column);
    if (!(seconds >= 0 && seconds < 9.2e9)) {
      Fail(std::string(name) + " is not a time from 1970 to 2262 in seconds");
    }
    // Whole seconds and the fraction apart: seconds * 1e9 as a double would be off by up to
    // 128 ns at today's times.
    const double whole = std::floor(seconds);
    return static_cast<int64_t>(whole) * 1000000000 +
           static_cast<int64_t>(std::llround((seconds - whole) * 1e9));
  }
  // An id column: a positive integer. Rows are read in id order, so a repeated id shows here.
  uint64_t Id(int column, const char* name) {
    const int64_t value = Int(column, name);
    if (value <= 0) Fail(std::string(name) + " " + std::to_string(value) + " is not positive");
    return static_cast<uint64_t>(value);
  }
  bool Flag(int column, const char* name) {
    const int64_t value = Int(column, name);
    if (value != 0 && value != 1) Fail(std::string(name) + " is neither 0 nor 1");
    return value == 1;
  }
  // A TEXT column, NOT NULL; every byte kept.
  std::string Text(int column, const char* name) {
    if (query_.IsNull(column)) Fail(std::string(name) + " is NULL");
    return query_.Text(column);
  }
  std::string NonEmpty(int column, const char* name) {
    std::string text = Text(column, name);
    if (text.empty()) Fail(std::string(name) + " is empty");
    return text;
  }
  bool IsNull(int column) const { return query_.IsNull(column); }

 private:
  static SqliteStatement Prepare(SqliteDb* db, const char* table, const std::string& sql,
                                 const char* writer) {
    try {
      return SqliteStatement(db, sql);
    } catch (const ProfError& e) {
      throw ProfError(db->name(), "table " + std::string(table) + " is not as " + writer +
                                      " writes it (" + e.diagnostic().message + ")");
    }
  }

  SqliteDb* db_;
  const char* table_;
  SqliteStatement query_;
  std::string row_;
};

// A decimal integer written in a meta value, exactly (no sign '+', no blanks).
inline std::optional<int64_t> ParseInt(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

// A table a profile is read from: there, and a plain table. A view or a virtual table runs
// whatever query its author wrote (an endless recursive one hangs the reader), and is refused
// before it is read from; prof2sqlite and rsprof write plain tables.
inline void RequirePlainTable(SqliteDb* db, const char* table) {
  switch (db->KindOf(table)) {
    case SqliteDb::ObjectKind::kTable:
      return;
    case SqliteDb::ObjectKind::kNone:
      throw ProfError(db->name(), "table " + std::string(table) +
                                      " is missing (a database of another layout?)");
    case SqliteDb::ObjectKind::kView:
    case SqliteDb::ObjectKind::kVirtualTable:
    case SqliteDb::ObjectKind::kOther:
      throw ProfError(db->name(), std::string(table) +
                                      " is not a plain table (a view or a virtual table): not "
                                      "read, as it could run any query");
  }
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_TABLE_READER_H_
