#include "common/sqlite/sqlite_codec.h"

#include <memory>
#include <utility>

#include "common/sqlite/database_file.h"
#include "common/sqlite/rsprof_reader.h"
#include "common/sqlite/sqlite_format.h"
#include "common/sqlite/sqlite_reader.h"

namespace proftools {
namespace {

void ReadSqliteInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  DatabaseFile file(std::move(input), context.max_spool_size);
  const std::unique_ptr<SqliteDb> db = file.Open();
  ReadAnyDatabase(db.get(), context, sink);
}

}  // namespace

void ReadAnyDatabase(SqliteDb* db, const ReadContext& context, ProfileSink* sink) {
  if (IsRsprofDatabase(db)) {
    ReadRsprofDatabase(db, context, sink);
  } else {
    ReadDatabase(db, sink);  // prof2sqlite's, or a message saying what it lacks
  }
}

const ReaderSpec kSqliteReader = {
    "sqlite",
    "a SQLite database (prof2sqlite's, or an rsprof recording)",
    ReaderShape::kWholeInput,
    "sqlite2prof",
    SniffSqlite,
    ReadSqliteInput,
};

}  // namespace proftools
