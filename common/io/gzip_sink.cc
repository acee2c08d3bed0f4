#include "common/io/gzip_sink.h"

#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/block_deflater.h"

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
  uint32_t crc = 0;  // of the input
  size_t size = 0;   // of the input
};

// Deflates one block (see block_deflater.h), with the CRC-32 of its input, and frees the input:
// memory is the blocks in flight.
bool DeflateBlock(BlockDeflater* deflater, Block* block) {
  if (!deflater->Deflate(block->dictionary, block->input, block->last, &block->output)) {
    return false;
  }
  block->crc = GzipCrc32(0, block->input);
  std::string().swap(block->input);
  return true;
}

void AppendLittleEndian32(std::string* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

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
    const std::unique_ptr<BlockDeflater> deflater = BlockDeflater::ForLevel(level);
    while (true) {
      Block* block;
      {
        std::unique_lock<std::mutex> lock(mutex);
        work_ready.wait(lock, [&] { return stopping || !to_do.empty(); });
        if (stopping) break;
        block = to_do.front();
        to_do.pop_front();
      }
      const bool ok = DeflateBlock(deflater.get(), block);
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
    if (block->failed) throw ProfError("", "gzip: deflate failed");
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
    block->failed = !DeflateBlock(BlockDeflater::ForLevel(s.level).get(), block.get());
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
