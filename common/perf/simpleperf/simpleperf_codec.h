// kSimpleperfReader: the protobuf records of Android's `simpleperf report-sample --protobuf`
// (the file the Firefox Profiler and Android Studio import): "SIMPLEPERF", a 16-bit version,
// then Record messages each after its 32-bit size, until a size of 0 (cmd_report_sample.proto:
// Sample, LostSituation, File, Thread, MetaInfo). docs/simpleperf.md says what is read.
#ifndef PROFTOOLS_COMMON_PERF_SIMPLEPERF_SIMPLEPERF_CODEC_H_
#define PROFTOOLS_COMMON_PERF_SIMPLEPERF_SIMPLEPERF_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

int SniffSimpleperf(std::string_view head, bool text);

extern const ReaderSpec kSimpleperfReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_SIMPLEPERF_SIMPLEPERF_CODEC_H_
