#include "common/io/gzip_sink.h"

#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace proftools {
namespace {

constexpr size_t kBlock = size_t{1} << 20;        // input bytes per block, cut at fixed offsets
constexpr size_t kDictionary = size_t{32} << 10;  // deflate's window: what a block may refer to

// One block: its input, the tail of the block before (its dictionary), and once a worker has
// deflated it, its output and the CRC-32 of its input.
struct Block {
  std::string input;
  std::string dictionary;
  bool last = false;
  bool done = false;
  bool failed = false;
  std::string output;
  uLong crc = 0;    // of the input
  size_t size = 0;  // of the input
};

// Deflate's LZ77 pass is most of its cost, and on some data buys little: the location ids of
// a profile whose every stack is new (random-looking varints) shrink 14% at level 1 (8% by
// Huffman coding alone, itself at under 100 MB/s), while repeated stacks, strings and labels
// shrink 60% and more. So at level 1 a block first deflates a probe, 32 KiB of its middle; when
// that leaves more than 80% of it, the whole block is stored (deflate's uncompressed blocks,
// at memory speed): compressing it would cost more time than reading and writing the profile
// for a few percent of size. The choice depends on the block's bytes alone, so the output stays
// deterministic; blocks under 256 KiB (small profiles, whose bytes golden tests pin) are never
// probed. A 64 KiB probe cost 12% of the deflating; at 32 KiB the ratios stay far from the
// threshold (86% either way on the location ids of a million new stacks, 16-22% on perf
// profiles).
constexpr size_t kProbe = size_t{32} << 10;
constexpr size_t kProbeMinBlock = size_t{256} << 10;
constexpr size_t kStoredPercent = 80;  // probe output over probe input, above which...

// The streams of one worker: LZ77 + Huffman at the sink's level, and stored (level 0).
struct Deflaters {
  z_stream lz;
  z_stream stored;
  bool ready = false;

  explicit Deflaters(int level) {
    std::memset(&lz, 0, sizeof lz);
    std::memset(&stored, 0, sizeof stored);
    // Raw deflate (windowBits -15): the gzip header and trailer are written by the sink.
    const bool lz_ready = deflateInit2(&lz, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    const bool stored_ready =
        deflateInit2(&stored, 0, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    ready = lz_ready && stored_ready;
    if (!lz_ready) lz.state = nullptr;
    if (!stored_ready) stored.state = nullptr;
  }
  ~Deflaters() {
    if (lz.state != nullptr) deflateEnd(&lz);
    if (stored.state != nullptr) deflateEnd(&stored);
  }
  Deflaters(const Deflaters&) = delete;
  Deflaters& operator=(const Deflaters&) = delete;
};

// Deflates `input` after `dictionary` into `output` (resized to what was written), as a
// stream that ends with `flush`. False when zlib fails.
bool Deflate(z_stream* z, std::string_view dictionary, std::string_view input, int flush,
             std::string* output) {
  if (deflateReset(z) != Z_OK) return false;
  if (!dictionary.empty() &&
      deflateSetDictionary(z, reinterpret_cast<const Bytef*>(dictionary.data()),
                           static_cast<uInt>(dictionary.size())) != Z_OK) {
    return false;
  }
  // zlib's interface is not const-correct; it does not write through next_in.
  z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  z->avail_in = static_cast<uInt>(input.size());
  output->resize(deflateBound(z, input.size()) + 64);
  z->next_out = reinterpret_cast<Bytef*>(&(*output)[0]);
  z->avail_out = static_cast<uInt>(output->size());
  const int rc = deflate(z, flush);
  // The bound leaves room for all of it at once: Z_FINISH must end the stream, a sync flush
  // must have consumed all input and left output space.
  if (flush == Z_FINISH ? rc != Z_STREAM_END
                        : (rc != Z_OK || z->avail_in != 0 || z->avail_out == 0)) {
    return false;
  }
  output->resize(output->size() - z->avail_out);
  return true;
}

// Whether LZ77 finds too little in `block` to be worth its time (see kProbe).
bool LzGainsLittle(z_stream* lz, std::string_view block, std::string* scratch) {
  if (block.size() < kProbeMinBlock) return false;
  const size_t at = (block.size() - kProbe) / 2;
  if (!Deflate(lz, block.substr(at - kDictionary, kDictionary), block.substr(at, kProbe),
               Z_SYNC_FLUSH, scratch)) {
    return false;
  }
  return scratch->size() * 100 > kProbe * kStoredPercent;
}

// Deflates one block as raw deflate data (no header): with Z_SYNC_FLUSH it ends on a byte
// boundary without the final-block bit, so the next block's data can follow; the last block
// ends the stream with Z_FINISH. A stored block makes no back-references, and the blocks after
// it may still refer into its bytes: the decoder's window holds them either way.
bool DeflateBlock(Deflaters* deflaters, bool adaptive, Block* block) {
  const bool stored = adaptive && LzGainsLittle(&deflaters->lz, block->input, &block->output);
  z_stream* z = stored ? &deflaters->stored : &deflaters->lz;
  if (!Deflate(z, stored ? std::string_view() : std::string_view(block->dictionary), block->input,
               block->last ? Z_FINISH : Z_SYNC_FLUSH, &block->output)) {
    return false;
  }
  block->crc = crc32(0L, reinterpret_cast<const Bytef*>(block->input.data()),
                     static_cast<uInt>(block->input.size()));
  std::string().swap(block->input);  // free it now: memory is the blocks in flight
  return true;
}

void AppendLittleEndian32(std::string* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

bool GzipBlockIsStored(std::string_view block) {
  Deflaters deflaters(1);
  std::string scratch;
  return deflaters.ready && LzGainsLittle(&deflaters.lz, block, &scratch);
}

struct GzipSink::State {
  ByteSink* out = nullptr;
  int level = 1;
  size_t max_in_flight = 0;
  uLong crc = 0;
  uint64_t total = 0;  // input bytes, for the trailer (modulo 2^32)
  std::string previous_tail;
  bool header_written = false;  // written with the first block, not by the constructor

  std::mutex mutex;
  std::condition_variable work_ready;  // a block to deflate, or stopping
  std::condition_variable block_done;
  std::deque<std::unique_ptr<Block>> in_flight;  // in stream order
  std::deque<Block*> to_do;
  bool stopping = false;
  // Started with the first full block: an output of one block (most profiles) is deflated on
  // the caller's thread, without starting threads for it.
  unsigned threads = 1;
  std::vector<std::thread> workers;

  void Work() {
    Deflaters deflaters(level);
    while (true) {
      Block* block;
      {
        std::unique_lock<std::mutex> lock(mutex);
        work_ready.wait(lock, [&] { return stopping || !to_do.empty(); });
        if (stopping) break;
        block = to_do.front();
        to_do.pop_front();
      }
      const bool ok = deflaters.ready && DeflateBlock(&deflaters, level == 1, block);
      {
        std::lock_guard<std::mutex> lock(mutex);
        block->failed = !ok;
        block->done = true;
      }
      block_done.notify_all();
    }
  }

  void WriteHeader() {
    header_written = true;
    // RFC 1952: deflate, no flags, mtime 0 (identical inputs give identical files), XFL 4
    // ("fastest") at level 1 and 2 ("slowest") at 9 as zlib writes it, OS 255 ("unknown").
    const char xfl = level == 1 ? 4 : level == 9 ? 2 : 0;
    const char header[10] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, xfl, '\xff'};
    out->Write(std::string_view(header, sizeof header));
  }

  // Waits for the oldest block in flight, writes it and forgets it.
  void WriteOldest() {
    std::unique_ptr<Block> block;
    {
      std::unique_lock<std::mutex> lock(mutex);
      block_done.wait(lock, [&] { return in_flight.front()->done; });
      block = std::move(in_flight.front());
      in_flight.pop_front();
    }
    if (block->failed) throw std::runtime_error("gzip: deflate failed");
    if (!header_written) WriteHeader();
    crc = crc32_combine(crc, block->crc, static_cast<z_off_t>(block->size));
    out->Write(block->output);
  }
};

GzipSink::GzipSink(ByteSink* out, int level, unsigned threads) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.out = out;
  s.level = level;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  s.threads = threads;
  s.max_in_flight = 2 * threads + 1;  // enough to keep every worker busy; bounds memory
  s.crc = crc32(0L, Z_NULL, 0);
}

GzipSink::~GzipSink() {
  State& s = *state_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.stopping = true;
  }
  s.work_ready.notify_all();
  for (std::thread& worker : s.workers) worker.join();
}

void GzipSink::Write(std::string_view data) {
  while (!data.empty()) {
    const size_t take = std::min(kBlock - pending_.size(), data.size());
    pending_.append(data.data(), take);
    data.remove_prefix(take);
    if (pending_.size() == kBlock) Submit(false);
  }
}

void GzipSink::Submit(bool last) {
  State& s = *state_;
  // The whole output in one block (most profiles): deflated here, without starting threads.
  const bool here = last && s.workers.empty();
  if (!here && s.workers.empty()) {
    for (unsigned i = 0; i < s.threads; ++i) s.workers.emplace_back([&s] { s.Work(); });
  }
  while (s.in_flight.size() >= s.max_in_flight) s.WriteOldest();
  auto block = std::make_unique<Block>();
  block->last = last;
  block->dictionary = std::move(s.previous_tail);
  s.previous_tail.assign(pending_, pending_.size() - std::min(pending_.size(), kDictionary),
                         std::string::npos);
  s.total += pending_.size();
  block->size = pending_.size();
  block->input = std::move(pending_);
  pending_.clear();
  pending_.reserve(kBlock);
  if (here) {
    Deflaters deflaters(s.level);
    block->failed = !(deflaters.ready && DeflateBlock(&deflaters, s.level == 1, block.get()));
    block->done = true;
  }
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!here) s.to_do.push_back(block.get());
    s.in_flight.push_back(std::move(block));
  }
  if (!here) s.work_ready.notify_one();
}

void GzipSink::Finish() {
  State& s = *state_;
  Submit(true);
  while (!s.in_flight.empty()) s.WriteOldest();
  std::string trailer;
  AppendLittleEndian32(&trailer, static_cast<uint32_t>(s.crc));
  AppendLittleEndian32(&trailer, static_cast<uint32_t>(s.total));
  s.out->Write(trailer);
}

}  // namespace proftools
