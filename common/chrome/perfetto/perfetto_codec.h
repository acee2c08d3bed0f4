// kPerfettoReader: Perfetto's protobuf traces (a Trace of TracePackets), as Chromium (`chromium
// --trace-startup` without `--trace-startup-format=json`), Android's `perfetto` and the Perfetto
// SDK write them. Read by field number (common/base/proto_wire.h), sequence by sequence
// (perfetto_sequence.h): V8's CPU profiles (Chrome's Profile and ProfileChunk events), Chrome's
// sampling profiler (StreamingProfilePacket), Linux perf samples (PerfSample), heapprofd's heap
// dumps (ProfilePacket), and track events (slices, as the Trace Event Format's spans are read),
// with the threads and processes their descriptors name. docs/perfetto.md says what is read and
// what is left out.
#ifndef PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_CODEC_H_
#define PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

int SniffPerfetto(std::string_view head, bool text);

extern const ReaderSpec kPerfettoReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_CODEC_H_
