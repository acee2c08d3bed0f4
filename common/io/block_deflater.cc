#include "common/io/block_deflater.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <cstring>
#include <vector>

namespace proftools {
namespace {

// Room for a block's output before the first try: deflate's worst case (stored blocks) adds a
// few bytes per 64 KiB; the loops below grow it if a library ever wants more.
size_t FirstGuess(size_t input) {
  return input + input / 64 + 1024;
}

// Whether raw deflate data `deflated`, after `dictionary`, inflates to `input` exactly (zlib's
// inflate: independent of the deflater it checks).
bool InflatesTo(std::string_view dictionary, std::string_view deflated, std::string_view input,
                std::string* scratch) {
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return false;
  bool ok = dictionary.empty() ||
            inflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()),
                                 static_cast<uInt>(dictionary.size())) == Z_OK;
  scratch->resize(input.size() + 1);  // one byte more: an inflation too long is caught
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
  z.avail_in = static_cast<uInt>(deflated.size());
  z.next_out = reinterpret_cast<Bytef*>(&(*scratch)[0]);
  z.avail_out = static_cast<uInt>(scratch->size());
  if (ok) {
    const int rc = inflate(&z, Z_SYNC_FLUSH);
    ok = (rc == Z_OK || rc == Z_STREAM_END) && z.avail_in == 0 &&
         scratch->size() - z.avail_out == input.size() &&
         std::memcmp(scratch->data(), input.data(), input.size()) == 0;
  }
  inflateEnd(&z);
  return ok;
}

// ISA-L's igzip at its level 1 (checked by CheckedByInflating: see ForLevel).
class IgzipDeflater : public BlockDeflater {
 public:
  IgzipDeflater() : stream_(std::make_unique<isal_zstream>()), level_buffer_(kLevelBuffer) {}

  bool Deflate(std::string_view dictionary, std::string_view input, bool last,
               std::string* output) override {
    isal_zstream& s = *stream_;
    isal_deflate_init(&s);
    s.level = 1;
    s.level_buf = level_buffer_.data();
    s.level_buf_size = static_cast<uint32_t>(level_buffer_.size());
    s.gzip_flag = IGZIP_DEFLATE;     // raw deflate: GzipSink writes the header and trailer
    s.flush = SYNC_FLUSH;            // ends on a byte boundary, without the final-block bit...
    s.end_of_stream = last ? 1 : 0;  // ...unless it ends the stream
    // igzip's interface is not const-correct; it does not write through either pointer.
    if (!dictionary.empty() &&
        isal_deflate_set_dict(&s, Bytes(dictionary), static_cast<uint32_t>(dictionary.size())) !=
            COMP_OK) {
      return false;
    }
    s.next_in = Bytes(input);
    s.avail_in = static_cast<uint32_t>(input.size());
    output->resize(FirstGuess(input.size()));
    size_t written = 0;
    while (true) {
      s.next_out = reinterpret_cast<uint8_t*>(&(*output)[written]);
      s.avail_out = static_cast<uint32_t>(output->size() - written);
      if (isal_deflate(&s) != COMP_OK) return false;
      written = output->size() - s.avail_out;
      // It returns when it has used all input and written all output, or when the output is
      // full: then it gets more room and goes on.
      if (s.avail_out > 0) break;
      output->resize(output->size() * 2);
    }
    if (s.avail_in != 0 || (last && s.internal_state.state != ZSTATE_END)) return false;
    output->resize(written);
    return true;
  }

 private:
  static constexpr size_t kLevelBuffer = ISAL_DEF_LVL1_DEFAULT;
  static uint8_t* Bytes(std::string_view data) {
    return reinterpret_cast<uint8_t*>(const_cast<char*>(data.data()));
  }

  std::unique_ptr<isal_zstream> stream_;  // large (its history and hash table): on the heap
  std::vector<uint8_t> level_buffer_;
};

// zlib at levels 2 to 9.
class ZlibDeflater : public BlockDeflater {
 public:
  explicit ZlibDeflater(int level) {
    std::memset(&z_, 0, sizeof z_);
    // Raw deflate (windowBits -15): GzipSink writes the header and trailer.
    ready_ = deflateInit2(&z_, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  }
  ~ZlibDeflater() override {
    if (ready_) deflateEnd(&z_);
  }
  ZlibDeflater(const ZlibDeflater&) = delete;
  ZlibDeflater& operator=(const ZlibDeflater&) = delete;

  bool Deflate(std::string_view dictionary, std::string_view input, bool last,
               std::string* output) override {
    if (!ready_ || deflateReset(&z_) != Z_OK) return false;
    if (!dictionary.empty() &&
        deflateSetDictionary(&z_, reinterpret_cast<const Bytef*>(dictionary.data()),
                             static_cast<uInt>(dictionary.size())) != Z_OK) {
      return false;
    }
    // zlib's interface is not const-correct; it does not write through next_in.
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    z_.avail_in = static_cast<uInt>(input.size());
    // The bound leaves room for all of it at once: Z_FINISH must end the stream, a sync flush
    // must have consumed all input and left output space.
    output->resize(deflateBound(&z_, input.size()) + 64);
    z_.next_out = reinterpret_cast<Bytef*>(&(*output)[0]);
    z_.avail_out = static_cast<uInt>(output->size());
    const int rc = deflate(&z_, last ? Z_FINISH : Z_SYNC_FLUSH);
    if (last ? rc != Z_STREAM_END : (rc != Z_OK || z_.avail_in != 0 || z_.avail_out == 0)) {
      return false;
    }
    output->resize(output->size() - z_.avail_out);
    return true;
  }

 private:
  z_stream z_;
  bool ready_ = false;
};

class CheckedDeflater : public BlockDeflater {
 public:
  explicit CheckedDeflater(std::unique_ptr<BlockDeflater> fast) : fast_(std::move(fast)) {}

  bool Deflate(std::string_view dictionary, std::string_view input, bool last,
               std::string* output) override {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      if (!fast_->Deflate(dictionary, input, last, output)) return false;
      if (InflatesTo(dictionary, *output, input, &scratch_)) return true;
    }
    if (fallback_ == nullptr) fallback_ = std::make_unique<ZlibDeflater>(1);
    return fallback_->Deflate(dictionary, input, last, output);
  }

 private:
  static constexpr int kAttempts = 3;
  std::unique_ptr<BlockDeflater> fast_;
  std::string scratch_;                      // a block inflated again
  std::unique_ptr<BlockDeflater> fallback_;  // zlib's level 1, made when first needed
};

}  // namespace

std::unique_ptr<BlockDeflater> CheckedByInflating(std::unique_ptr<BlockDeflater> fast) {
  return std::make_unique<CheckedDeflater>(std::move(fast));
}

std::unique_ptr<BlockDeflater> BlockDeflater::ForLevel(int level) {
  // igzip's output was now and then wrong on the virtual machines we test on (a stream that
  // inflates to other bytes, while the same input deflated again is right: 24 of 360 runs of
  // the merge property test, three at once on two cores; zlib 0 of 360; never in a program
  // compressing alone), so each of its blocks is checked.
  if (level <= 1) return CheckedByInflating(std::make_unique<IgzipDeflater>());
  return std::make_unique<ZlibDeflater>(level);
}

uint32_t GzipCrc32(uint32_t crc, std::string_view data) {
  return crc32_gzip_refl(crc, reinterpret_cast<const unsigned char*>(data.data()), data.size());
}

}  // namespace proftools
