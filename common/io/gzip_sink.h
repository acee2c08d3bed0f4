// A ByteSink that gzips what it is given into another ByteSink, with a fixed header (mtime 0,
// no file name, OS byte 255 "unknown") so that the same input always gives the same bytes.
//
// Deflating runs on worker threads, in blocks, as pigz does: the input is cut into 1 MiB blocks
// at fixed offsets, each block is deflated on its own with the last 32 KiB of the block before
// as its dictionary and ends on a byte boundary (a sync flush; the last block finishes the
// stream), and the blocks are written in order, so their concatenation is one deflate stream.
// The output depends only on the input bytes — not on how writes were split, nor on the number
// of threads or their timing — so it stays deterministic. A large profile costs about as much
// to deflate as to produce; with the blocks spread over the cores, the two overlap, and the
// deflating after the last byte (all of it, for an aggregating writer) is shared out. Level 1
// is ISA-L's igzip, the others zlib's (block_deflater.h).
// The workers start with the first full block: an output of one block (most profiles, and
// every input of a fuzzer) is deflated on the caller's thread, with the same bytes.
#ifndef PROFTOOLS_COMMON_IO_GZIP_SINK_H_
#define PROFTOOLS_COMMON_IO_GZIP_SINK_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/io/byte_stream.h"

namespace proftools {

class GzipSink : public ByteSink {
 public:
  // `level` is zlib's scale (1 fastest .. 9 smallest). The default is 1, as Go's runtime/pprof
  // writes profiles: protobuf varints compress little better at 6 (1% smaller on a 1e6-sample
  // profile) and zlib at 6 costs more than all the rest of prof2pprof. `threads` 0: one per
  // core, at most 4.
  explicit GzipSink(ByteSink* out, int level = 1, unsigned threads = 0);
  // Without Finish (an error on the way): stops the workers, writes nothing more.
  ~GzipSink() override;
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  void Write(std::string_view data) override;
  // Compresses what is left and writes the end of the gzip stream; rethrows an error of the
  // destination sink or of deflate. Nothing may be written after it.
  void Finish();

 private:
  void Submit(bool last);
  struct State;
  std::unique_ptr<State> state_;
  std::string pending_;  // the block being filled
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_GZIP_SINK_H_
