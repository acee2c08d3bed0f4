// rsprof's recording database (its storage design: tables meta, checkpoints, symbols,
// cpu_samples, heap_events) read as a profile. What a profile gets from one:
// - one source of type "rsprof" (its uri the path, its time meta start_time);
// - the value types `samples` (count: cpu_samples.count) when table cpu_samples has rows, and
//   `alloc_space` and `free_space` (bytes: heap_events.alloc_bytes and free_bytes) when table
//   heap_events has rows; `--derive live=alloc_space-free_space` gives rsprof's live bytes;
//   the period, when meta cpu_freq_hz is set, is one sample's share of a second (cpu
//   nanoseconds, rounded);
// - one location per address of table symbols (its function, file and line; an address
//   without a function is a location with an address only), each its own one-frame stack, as
//   rsprof records only the sampled address;
// - a sample per row of cpu_samples and heap_events, spanning its checkpoint's interval (from
//   the checkpoint before, or the start of the recording, to its timestamp_ms), labelled with
//   the process (comm from meta process_name, pid from meta pid);
// - every meta row as a meta record `rsprof.KEY`.
// A meta version newer than this reader knows is refused, as rsprof refuses it.
#ifndef PROFTOOLS_COMMON_SQLITE_RSPROF_READER_H_
#define PROFTOOLS_COMMON_SQLITE_RSPROF_READER_H_

#include "common/model/reader_spec.h"
#include "common/model/sink.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

// The newest meta version of rsprof's layout this reader knows.
inline constexpr int kRsprofSchemaVersion = 1;

// Whether the database has rsprof's tables (checkpoints, cpu_samples and symbols).
bool IsRsprofDatabase(SqliteDb* db);

// Streams the database's profile into `sink` (OnHeader … OnEnd). Memory grows with the
// addresses and checkpoints, not with the rows. Throws ProfError ("DB: table T, row R: what").
void ReadRsprofDatabase(SqliteDb* db, const ReadContext& context, ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_RSPROF_READER_H_
