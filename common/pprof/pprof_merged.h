// Profiles prof2pprof wrote and pprof then merged (`pprof -proto a.pb.gz b.pb.gz`): pprof's merge
// keeps each distinct comment once, so the carried records of several profiles arrive together
// (two `source 1`, two values of one meta key) while the samples no longer say which input they
// came from. They are read as the merge they are instead of being refused.
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_MERGED_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_MERGED_H_

#include <string>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// Makes `header`'s carried sources and meta valid again when pprof merged several profiles:
// sources with the same id become one source (type and URI kept where they agree, else `pprof`
// and empty; the earliest time), with a comment naming each, since their samples cannot be told
// apart; a meta key given several values keeps the bytewise smallest, as prof-merge does.
// Returns a warning per kind of change, empty when the header was valid.
std::vector<std::string> CollapsePprofMergedRecords(ProfileHeader* header);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_MERGED_H_
