// Fuzzes the database readers (common/sqlite: prof2sqlite's layout and rsprof's). Three kinds
// of input:
//   PROFILE "\n--- sql ---\n" SQL  the profile (prof text or pprof) written into a new database
//       as prof2sqlite writes it, then SQL run on it, as users edit databases
//       (`sqlite3 runs.db 'DELETE FROM samples WHERE ...'`): a statement that fails is skipped;
//   "\n--- sql ---\n" SQL          SQL run on an empty database (an rsprof recording's schema
//       and inserts, as golden/inputs/rsprof-recording.sql);
//   anything else                  the bytes are a database file.
// The database is then read as every program reads it, through the checker: whatever is accepted
// must be canonical text that reads back to itself; anything else must be refused with the
// library's own error. The SQL may not reach outside the database (no ATTACH, no PRAGMA, no
// VACUUM INTO, which attaches its output) and is stopped after a million steps and at 1 MiB per
// value, so that it can neither write files nor hang nor take unbounded memory.
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "common/model/checker.h"
#include "common/sqlite/database_file.h"
#include "common/sqlite/sqlite_codec.h"
#include "common/sqlite/sqlite_db.h"
#include "common/sqlite/sqlite_writer.h"
#include "common/text/text_writer.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

constexpr std::string_view kSqlSeparator = "\n--- sql ---\n";

// A file of its own for each input, removed whatever happens.
class ScratchFile {
 public:
  ScratchFile() {
    const char* tmp = getenv("TMPDIR");
    path_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/fuzz-sqlite.XXXXXX";
    const int fd = mkstemp(&path_[0]);
    if (fd < 0) proftools::fuzz::Fail("cannot create " + path_);
    close(fd);
  }
  ~ScratchFile() { unlink(path_.c_str()); }
  const std::string& path() const { return path_; }
  void Write(std::string_view bytes) const {
    FILE* f = fopen(path_.c_str(), "wb");
    if (f == nullptr || fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
        fclose(f) != 0) {
      proftools::fuzz::Fail("cannot write " + path_);
    }
  }

 private:
  std::string path_;
};

// Refuses what would reach outside the database file: other databases, pragmas (journal
// files, settings), and VACUUM (INTO a file).
int Authorize(void*, int action, const char*, const char*, const char*, const char*) {
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
    case SQLITE_PRAGMA:
      return SQLITE_DENY;
    default:
      return SQLITE_OK;
  }
}

int StopAfterAMillionSteps(void* steps) {
  return ++*static_cast<int*>(steps) > 1000;
}

// Writes `profile` (unless it is blank) into a new database at `path`, then runs `sql` on it.
void MakeDatabase(const std::string& path, std::string_view profile, std::string_view sql) {
  using namespace proftools;
  if (profile.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    SqliteDb db(path, "fuzz.db", SqliteDb::Mode::kCreate);
    SqliteWriter writer(&db);
    DiagnosticHandler throw_on_violation;
    CheckingSink checked(&writer, &throw_on_violation, "(database)");
    Input input = fuzz::OpenBytes(profile);
    ReadOptions options;
    options.max_input_size = fuzz::kMaxInflate;
    ReadProfile(input, &checked, options);
  }
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_set_authorizer(db, Authorize, nullptr);
  int steps = 0;  // of a thousand VM instructions each
  sqlite3_progress_handler(db, 1000, StopAfterAMillionSteps, &steps);
  const std::string text(sql);
  const char* next = text.c_str();
  while (*next != '\0' && steps <= 1000) {  // statement by statement: a failing one is skipped
    sqlite3_stmt* statement = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, next, -1, &statement, &tail) != SQLITE_OK || tail == next) {
      sqlite3_finalize(statement);
      const char* semicolon = strchr(next, ';');
      if (semicolon == nullptr) break;
      next = semicolon + 1;
      continue;
    }
    if (statement != nullptr) {
      while (sqlite3_step(statement) == SQLITE_ROW) {
      }
      sqlite3_finalize(statement);
    }
    next = tail;
  }
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  using namespace proftools::fuzz;
  const TwoParts parts =
      SplitAtLine(std::string_view(reinterpret_cast<const char*>(data), size), kSqlSeparator);
  ScratchFile file;
  if (!parts.found) {
    file.Write(parts.first);
  } else {
    // A profile the library refuses makes no database: nothing to read.
    const Outcome made =
        OnlyOurErrors([&] { MakeDatabase(file.path(), parts.first, parts.second); });
    if (made.failed) return 0;
  }
  std::string canonical;
  OnlyOurErrors([&] {
    DatabaseFile database(file.path(), 0);  // as the programs open it
    StringSink text;
    CanonicalWriter writer(&text);
    DiagnosticHandler refuse;
    CheckingSink checked(&writer, &refuse, database.name());
    ReadAnyDatabase(database.Open().get(), ReadContext{}, &checked);
    canonical = text.text();
  });
  if (!canonical.empty()) RequireCanonicalRoundTrip(canonical);
  return 0;
}
