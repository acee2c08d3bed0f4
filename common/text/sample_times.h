// A quick look at the samples of a prof text stream: each sample's SOURCE, TIME and DURATION,
// without parsing or checking anything else. For first passes that only need when samples
// happened (prof-filter's windows relative to each source); the second pass reads and checks
// the whole profile, so a malformed line is left for it to report.
#ifndef PROFTOOLS_COMMON_TEXT_SAMPLE_TIMES_H_
#define PROFTOOLS_COMMON_TEXT_SAMPLE_TIMES_H_

#include <cstdint>
#include <functional>

#include "common/io/byte_stream.h"

namespace proftools {

// Calls `on_sample(source, time, duration)` for every `sample` line whose TIME is present
// (DURATION 0 when absent). Lines that do not parse are skipped.
void ScanSampleTimes(ByteStream* stream,
                     const std::function<void(uint64_t, int64_t, int64_t)>& on_sample);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_SAMPLE_TIMES_H_
