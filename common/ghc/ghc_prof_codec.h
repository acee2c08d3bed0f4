// GHC's cost-centre profiles: the `.prof` report a program built with `ghc -prof` writes when run
// with `+RTS -p` (percentages), `+RTS -P` (ticks and bytes too) or `+RTS -pj` (JSON, as
// speedscope reads it). What a profile gets from one (docs/ghc.md):
// - one source of type "ghc-prof" (its uri the path); meta ghc.program, ghc.total_time,
//   ghc.total_ticks and ghc.total_alloc as the report gives them;
// - the value types `cpu` (nanoseconds: ticks times the tick interval), `alloc` (bytes) and
//   `entries` (count); the period is the tick interval;
// - a sample per cost-centre stack with its individual (not inherited) values, its stack the
//   cost centres from it to MAIN; a cost centre is a function `Module.label` (as speedscope
//   names them) in its source file at its first line;
// - from a `-p` report, which has percentages only, ticks and bytes estimated from them (one
//   decimal of the totals), with a warning.
#ifndef PROFTOOLS_COMMON_GHC_GHC_PROF_CODEC_H_
#define PROFTOOLS_COMMON_GHC_GHC_PROF_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "ghc-prof", the whole input in memory.
extern const ReaderSpec kGhcProfReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GHC_GHC_PROF_CODEC_H_
