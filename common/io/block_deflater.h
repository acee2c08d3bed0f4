// Deflates one block of a parallel gzip stream (GzipSink): raw deflate data, after a
// dictionary, that either ends on a byte boundary without the final-block bit (a sync flush,
// so that the next block's data can follow) or ends the stream.
//
// Level 1, the default, is ISA-L's igzip (level 1): on protobuf it deflates 7 to 12 times
// faster than zlib's level 1 (450 MB/s against 37–66 MB/s), to a file 1–5% larger (its hash
// table keeps one position per hash: long-period repeats are found only in part), and it keeps
// deflate's stream interface (dictionaries, sync flushes) that GzipSink's blocks need, which
// libdeflate's whole-buffer interface does not. Levels 2 to 9 are zlib's, for users who ask for
// a smaller file at zlib's cost. igzip picks its code by the processor's features, so machines
// of different kinds may write different (equally valid) bytes; within one machine the bytes
// depend on the input only.
#ifndef PROFTOOLS_COMMON_IO_BLOCK_DEFLATER_H_
#define PROFTOOLS_COMMON_IO_BLOCK_DEFLATER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace proftools {

class BlockDeflater {
 public:
  // `level` 1 to 9; one deflater per thread (it keeps its state from block to block).
  static std::unique_ptr<BlockDeflater> ForLevel(int level);
  virtual ~BlockDeflater() = default;

  // Deflates `input` (which may refer back into `dictionary`, the 32 KiB before it) into
  // `output`, replacing what it held; `last` ends the stream. False when the library fails.
  virtual bool Deflate(std::string_view dictionary, std::string_view input, bool last,
                       std::string* output) = 0;
};

// `fast` with each block checked by inflating it with zlib: a block that does not inflate to its
// input is deflated again, and after three wrong ones by zlib's level 1, so that what is written
// always inflates to what was given, and its bytes are still the input's alone. ForLevel(1)
// is igzip so checked.
std::unique_ptr<BlockDeflater> CheckedByInflating(std::unique_ptr<BlockDeflater> fast);

// The CRC-32 of gzip's trailer, of `data` after the CRC `crc` of what came before.
uint32_t GzipCrc32(uint32_t crc, std::string_view data);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_BLOCK_DEFLATER_H_
