// V8's CPU profile (`node --cpu-prof`'s CPU.*.cpuprofile, DevTools' "Save profile", the
// Profiler.Profile object of the DevTools protocol) as the registry sees it.
#ifndef PROFTOOLS_COMMON_CHROME_CPUPROFILE_CODEC_H_
#define PROFTOOLS_COMMON_CHROME_CPUPROFILE_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "cpuprofile", whole input, no converter of its own.
extern const ReaderSpec kCpuProfileReader;

// kCertain when `head` is a JSON object with the keys "nodes", "samples" and "timeDeltas";
// kLikely with "nodes" and "callFrame" (the samples come after the nodes, often past `head`);
// never for a trace ("traceEvents", "ph"), whose chunks hold the same keys.
int SniffCpuProfile(std::string_view head, bool text);

// Whether `head` starts (after blanks) with `c`.
bool JsonStartsWith(std::string_view head, char c);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_CPUPROFILE_CODEC_H_
