// A ByteSink that gzips what it is given into another ByteSink, with a fixed header (mtime 0,
// no file name, OS byte 255 "unknown") so that the same input always gives the same bytes.
#ifndef PROFTOOLS_COMMON_GZIP_SINK_H_
#define PROFTOOLS_COMMON_GZIP_SINK_H_

#include <memory>
#include <string_view>

#include "common/byte_stream.h"

namespace proftools {

class GzipSink : public ByteSink {
 public:
  // `level` is zlib's (1 fastest .. 9 smallest). The default is 1, as Go's runtime/pprof writes
  // profiles: protobuf varints compress little better at 6 (1% smaller on a 1e6-sample
  // profile) and deflate at 6 costs more than all the rest of prof2pprof.
  explicit GzipSink(ByteSink* out, int level = 1);
  ~GzipSink() override;
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  void Write(std::string_view data) override;
  // Writes the end of the gzip stream. Nothing may be written after it.
  void Finish();

 private:
  void Deflate(std::string_view data, int flush);
  struct State;
  std::unique_ptr<State> state_;
  ByteSink* out_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GZIP_SINK_H_
