// `perf script` text as a reader of the registry (one input, default options), and the first
// pass perf2prof runs over each of its inputs. perf.data files are recognised only to say how to
// turn them into text.
#ifndef PROFTOOLS_COMMON_PERF_PERF_CODEC_H_
#define PROFTOOLS_COMMON_PERF_PERF_CODEC_H_

#include <string>
#include <string_view>

#include "common/model/reader_spec.h"
#include "common/perf/perf_converter.h"

namespace proftools {

extern const ReaderSpec kPerfScriptReader;
extern const ReaderSpec kPerfDataReader;

// The first pass over one input: its events and sessions, the lines copied to `spool_fd` (-1:
// none). Refuses input with no sample header, and input without samples unless `allow_empty`.
PerfInput ScanPerfInput(Input& input, const std::string& uri, bool allow_empty, int spool_fd);

// Whether `head` looks like the text `perf script` prints: its header, or a stack line (a tab,
// a hex address and a symbol).
bool LooksLikePerfScript(std::string_view head);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_CODEC_H_
