#include "common/gzip_sink.h"

#include <zlib.h>

#include <cstring>
#include <stdexcept>

namespace proftools {

struct GzipSink::State {
  z_stream z;
  gz_header header;
  bool finished = false;
  char buffer[1 << 16];
};

GzipSink::GzipSink(ByteSink* out, int level) : state_(std::make_unique<State>()), out_(out) {
  std::memset(&state_->z, 0, sizeof state_->z);
  std::memset(&state_->header, 0, sizeof state_->header);
  // windowBits 15 + 16: a gzip wrapper instead of zlib's.
  if (deflateInit2(&state_->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: deflateInit2 failed");
  }
  state_->header.time = 0;  // no timestamp: identical inputs give identical files
  state_->header.os = 255;  // "unknown", whatever system wrote it
  deflateSetHeader(&state_->z, &state_->header);
}

GzipSink::~GzipSink() {
  deflateEnd(&state_->z);
}

void GzipSink::Write(std::string_view data) {
  if (!data.empty()) Deflate(data, Z_NO_FLUSH);
}

void GzipSink::Finish() {
  if (state_->finished) return;
  Deflate({}, Z_FINISH);
  state_->finished = true;
}

void GzipSink::Deflate(std::string_view data, int flush) {
  z_stream& z = state_->z;
  // zlib's interface is not const-correct; it does not write through next_in.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  int rc;
  do {
    z.next_out = reinterpret_cast<Bytef*>(state_->buffer);
    z.avail_out = sizeof state_->buffer;
    rc = deflate(&z, flush);
    if (rc == Z_STREAM_ERROR) throw std::runtime_error("gzip: deflate failed");
    const size_t produced = sizeof state_->buffer - z.avail_out;
    if (produced > 0) out_->Write(std::string_view(state_->buffer, produced));
  } while (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

}  // namespace proftools
