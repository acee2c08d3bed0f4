// R's Rprof() files as a reader of the registry (one input, default options), and the first pass
// rprof2prof runs over each of its inputs.
#ifndef PROFTOOLS_COMMON_RPROF_RPROF_CODEC_H_
#define PROFTOOLS_COMMON_RPROF_RPROF_CODEC_H_

#include <string>
#include <string_view>

#include "common/model/reader_spec.h"
#include "common/rprof/rprof_converter.h"

namespace proftools {

extern const ReaderSpec kRprofReader;

// The first pass over one input: its sessions, the bytes copied to `spool_fd` (-1: none). An
// empty input (R wrote nothing: a failed run) is an error unless `allow_empty`, when it has no
// session.
RprofInput ScanRprofInput(Input& input, const std::string& uri, bool allow_empty, int spool_fd);

// Whether the first line of `head` is an Rprof header ("sample.interval=...", after the modes'
// prefixes).
bool LooksLikeRprof(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_RPROF_RPROF_CODEC_H_
