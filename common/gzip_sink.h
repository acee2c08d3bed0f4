// A ByteSink that gzips what it is given into another ByteSink, with a fixed header (mtime 0,
// no file name, OS byte 255 "unknown") so that the same input always gives the same bytes.
//
// Deflating runs on a second thread: the writer of a large profile spends about as long
// compressing as producing the bytes, and the two overlap. The output does not depend on how
// the work was split (no flushes until Finish), so it stays deterministic.
#ifndef PROFTOOLS_COMMON_GZIP_SINK_H_
#define PROFTOOLS_COMMON_GZIP_SINK_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/byte_stream.h"

namespace proftools {

class GzipSink : public ByteSink {
 public:
  // `level` is zlib's (1 fastest .. 9 smallest). The default is 1, as Go's runtime/pprof writes
  // profiles: protobuf varints compress little better at 6 (1% smaller on a 1e6-sample
  // profile) and deflate at 6 costs more than all the rest of prof2pprof.
  explicit GzipSink(ByteSink* out, int level = 1);
  // Without Finish (an error on the way): stops the compressing thread, writes nothing more.
  ~GzipSink() override;
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  void Write(std::string_view data) override;
  // Compresses what is left and writes the end of the gzip stream; rethrows an error of the
  // destination sink. Nothing may be written after it.
  void Finish();

 private:
  void Submit();
  struct State;
  std::unique_ptr<State> state_;
  std::string pending_;  // bytes not yet handed to the compressing thread
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GZIP_SINK_H_
