// prof-merge --pprof: a merge written straight as pprof's profile.proto, gzipped.
//
// The bytes are those of the pipeline `prof-merge --aggregate ... | prof2pprof`: the pprof
// writer gets the records in the order and with the ids prof2pprof reads from the canonical
// text (CanonicalOrder), without the text being written and parsed. The merge aggregates
// (prof2pprof sums samples of the same stack, source and labels, so aggregating first changes
// no byte, and the same holds for the pipeline without --aggregate), which lets the writer
// write each sample as it comes while the gzip runs on the other cores.
#ifndef PROFTOOLS_COMMON_MERGE_MERGE_PPROF_H_
#define PROFTOOLS_COMMON_MERGE_MERGE_PPROF_H_

#include "common/io/byte_stream.h"
#include "common/merge/merger.h"

namespace proftools {

// Finishes `merger` (made with MergeOptions::aggregate) into `out` as pprof's profile.proto (the
// caller gzips it, as prof2pprof does by default).
void FinishAsPprof(Merger* merger, ByteSink* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGE_PPROF_H_
