// Reads a database in the layout of sqlite_schema.h back into a profile: the header, then every
// definition in id order (mappings, functions, locations, stacks), then the samples in id order,
// so that a database prof2sqlite wrote gives back the canonical text it was made from.
//
// Only tables are read, never views: a database whose views were dropped or materialised, or
// whose rows were deleted or added by SQL, is read as long as it keeps the model's constraints.
// One that does not is refused naming the table, the row and the constraint; one of another
// layout or of a newer schema version is refused before anything is read.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_READER_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_READER_H_

#include "common/model/sink.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

// Streams the database's profile into `sink` (OnHeader … OnEnd). Memory grows with the
// definitions, not with the samples. Throws ProfError ("DB: table T, row R: what is wrong").
void ReadDatabase(SqliteDb* db, ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_READER_H_
