// The registry's entry for SQLite databases, and the layouts it reads: prof2sqlite's own
// (sqlite_reader.h) and rsprof's recordings (rsprof_reader.h), told apart by their tables.
// Adding a layout: its reader in this folder, and one line in ReadAnyDatabase.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_CODEC_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_CODEC_H_

#include "common/model/reader_spec.h"
#include "common/model/sink.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

// The registry's entry: name "sqlite", sniffed by SQLite's magic bytes; a file is opened where
// it is, standard input or a pipe copied to a temporary file first (capped by the spool cap).
extern const ReaderSpec kSqliteReader;

// Streams the profile of a database of any layout this folder reads into `sink`. Throws
// ProfError for a database of another layout, naming the tables it looked for.
void ReadAnyDatabase(SqliteDb* db, const ReadContext& context, ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_CODEC_H_
