// prof text -> pprof's profile.proto (formats/prof-text.md §8).
//
// A sink: records go in, the serialized (not gzipped) perftools.profiles.Profile comes out of
// the ByteSink. Samples are written as they arrive (with --keep-samples) or summed by stack,
// source and labels and written at the end (the default); definitions, the sample types and the
// string table follow them (field order is free in protobuf). Stacks are kept encoded as pprof
// writes them, so memory grows with distinct stacks, not with samples.
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_WRITER_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

struct PprofWriteOptions {
  // One pprof sample per text sample, with TIME and DURATION as numeric labels
  // proftools.time / proftools.duration (unit nanoseconds). Default: sum samples that share
  // stack, source and labels (TIME and DURATION are dropped).
  bool keep_samples = false;
  // The producer sends each (stack, source, labels) at most once (an aggregated profile, such
  // as prof-merge's): samples are written as they arrive, which is the order and the sums
  // aggregating would give, without the aggregation's tables and without holding every sample
  // back until the end (the gzip that follows then works while the profile is produced).
  bool unique_samples = false;
};

class PprofWriter : public ProfileSink {
 public:
  PprofWriter(ByteSink* out, PprofWriteOptions options);
  ~PprofWriter() override;
  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  // Writes the aggregated samples, the carried unused stacks, the definitions and the string
  // table.
  void OnEnd() override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_WRITER_H_
