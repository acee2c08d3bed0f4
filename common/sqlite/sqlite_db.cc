#include "common/sqlite/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

constexpr int kMaxLength = 64 << 20;

}  // namespace

SqliteDb::SqliteDb(const std::string& path, std::string name, Mode mode) : name_(std::move(name)) {
  // A reader is given a URI (DatabaseFile: read-only, maybe immutable); a writer a plain path.
  const int flags = mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                                            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  const int code = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (code != SQLITE_OK) Fail(code, "cannot open");
  sqlite3_extended_result_codes(db_, 1);
  // A database may come from a stranger (issue 47): the defensive mode refuses writes that would
  // corrupt it, and its schema is not trusted, so that no view or trigger of its author's runs
  // SQL functions with side effects.
  sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  // A writer holding the lock briefly (a commit) is waited for; a long one is reported.
  sqlite3_busy_timeout(db_, 1000);
  // No text or blob of a profile is longer than a line of prof text may be (64 MiB): a larger
  // one in a stranger's database is refused instead of allocated.
  if (mode == Mode::kReadOnly) sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, kMaxLength);
}

namespace {

// SQLite calls the progress handler every kProgressInstructions instructions.
constexpr int kProgressInstructions = 100000;

}  // namespace

void SqliteDb::LimitWork(uint64_t instructions) {
  work_budget_ = instructions / kProgressInstructions + 1;
  work_calls_ = 0;
  sqlite3_progress_handler(
      db_, kProgressInstructions,
      [](void* self) -> int {
        SqliteDb* db = static_cast<SqliteDb*>(self);
        return ++db->work_calls_ > db->work_budget_ ? 1 : 0;
      },
      this);
}

SqliteDb::~SqliteDb() {
  sqlite3_close_v2(db_);
}

void SqliteDb::Fail(int code, const std::string& doing) const {
  const int primary = code & 0xff;
  std::string what;
  if (primary == SQLITE_NOTADB) {
    what = "not a SQLite database";
  } else if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    what =
        "the database is locked by another process (one writing to it?); try again when it "
        "is done";
  } else if (primary == SQLITE_INTERRUPT && work_budget_ != 0 && work_calls_ > work_budget_) {
    what = "stopped after " + std::to_string(work_budget_ * kProgressInstructions) +
           " instructions of SQLite, far more than reading a database of this size takes (a "
           "crafted database?)";
  } else if (primary == SQLITE_TOOBIG) {
    what = "a text or blob longer than 64 MiB, more than a profile holds (a crafted database?)";
  } else if (primary == SQLITE_CORRUPT) {
    what = "the database file is damaged (" + std::string(sqlite3_errstr(code)) + ")";
  } else {
    what =
        db_ != nullptr && sqlite3_errcode(db_) == code ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
  }
  throw ProfError(name_, doing.empty() ? what : doing + ": " + what);
}

void SqliteDb::Exec(const std::string& sql) {
  char* message = nullptr;
  const int code = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (code != SQLITE_OK) Fail(code, "");
}

bool SqliteDb::HasTable(const std::string& name) {
  SqliteStatement query(this,
                        "SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?");
  query.BindText(1, name);
  return query.Step();
}

SqliteDb::ObjectKind SqliteDb::KindOf(const std::string& name) {
  SqliteStatement query(this, "SELECT type, sql FROM sqlite_schema WHERE name = ?");
  query.BindText(1, name);
  if (!query.Step()) return ObjectKind::kNone;
  const std::string type = query.Text(0);
  if (type == "view") return ObjectKind::kView;
  if (type != "table") return ObjectKind::kOther;
  const std::string sql = query.Text(1);
  return sql.rfind("CREATE VIRTUAL TABLE", 0) == 0 ? ObjectKind::kVirtualTable : ObjectKind::kTable;
}

SqliteStatement::SqliteStatement(SqliteDb* db, const std::string& sql) : db_(db), sql_(sql) {
  const int code = sqlite3_prepare_v3(db->handle(), sql.c_str(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (code != SQLITE_OK) db->Fail(code, "");
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

void SqliteStatement::BindInt(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
}

void SqliteStatement::BindText(int index, std::string_view text) {
  // SQLITE_STATIC: the caller's bytes outlive the step that reads them (Run binds and steps).
  sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void SqliteStatement::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
}

bool SqliteStatement::Step() {
  const int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  db_->Fail(code, "");
}

void SqliteStatement::Run() {
  const int code = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  if (code != SQLITE_DONE && code != SQLITE_ROW) db_->Fail(code, "");
}

void SqliteStatement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

bool SqliteStatement::IsInteger(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER;
}

int64_t SqliteStatement::Int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

bool SqliteStatement::IsNumber(int column) const {
  const int type = sqlite3_column_type(stmt_, column);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

double SqliteStatement::Double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text), size);
}

const char* SqliteStatement::TypeName(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
      return "integer";
    case SQLITE_FLOAT:
      return "real";
    case SQLITE_TEXT:
      return "text";
    case SQLITE_BLOB:
      return "blob";
    default:
      return "null";
  }
}

}  // namespace proftools
