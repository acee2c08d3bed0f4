#include "common/gzip_sink.h"

#include <zlib.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace proftools {
namespace {

constexpr size_t kChunk = size_t{1} << 20;  // bytes handed to the compressing thread at once
constexpr size_t kMaxQueued = 4;            // chunks waiting: bounds memory to a few MiB

}  // namespace

struct GzipSink::State {
  ByteSink* out = nullptr;
  z_stream z;
  gz_header header;
  char buffer[1 << 16];

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::string> queue;
  bool finishing = false;  // no more chunks: finish the stream
  bool stopping = false;   // abandon: an error elsewhere
  bool done = false;
  std::exception_ptr error;
  std::thread worker;

  void Deflate(std::string_view data, int flush) {
    // zlib's interface is not const-correct; it does not write through next_in.
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    int rc;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      rc = deflate(&z, flush);
      if (rc == Z_STREAM_ERROR) throw std::runtime_error("gzip: deflate failed");
      const size_t produced = sizeof buffer - z.avail_out;
      if (produced > 0) out->Write(std::string_view(buffer, produced));
    } while (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  }

  void Run() {
    try {
      while (true) {
        std::string chunk;
        bool finish = false;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return stopping || finishing || !queue.empty(); });
          if (stopping) return;
          if (!queue.empty()) {
            chunk = std::move(queue.front());
            queue.pop_front();
          } else {
            finish = true;
          }
        }
        changed.notify_all();  // room in the queue
        if (finish) {
          Deflate({}, Z_FINISH);
          break;
        }
        Deflate(chunk, Z_NO_FLUSH);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    changed.notify_all();
  }
};

GzipSink::GzipSink(ByteSink* out, int level) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.out = out;
  std::memset(&s.z, 0, sizeof s.z);
  std::memset(&s.header, 0, sizeof s.header);
  // windowBits 15 + 16: a gzip wrapper instead of zlib's.
  if (deflateInit2(&s.z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: deflateInit2 failed");
  }
  s.header.time = 0;  // no timestamp: identical inputs give identical files
  s.header.os = 255;  // "unknown", whatever system wrote it
  deflateSetHeader(&s.z, &s.header);
  s.worker = std::thread([&s] { s.Run(); });
}

GzipSink::~GzipSink() {
  State& s = *state_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.stopping = true;
  }
  s.changed.notify_all();
  if (s.worker.joinable()) s.worker.join();
  deflateEnd(&s.z);
}

void GzipSink::Write(std::string_view data) {
  pending_.append(data.data(), data.size());
  if (pending_.size() >= kChunk) Submit();
}

void GzipSink::Submit() {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.changed.wait(lock, [&] { return s.queue.size() < kMaxQueued || s.done; });
  if (s.error) std::rethrow_exception(s.error);
  s.queue.push_back(std::move(pending_));
  pending_.clear();
  lock.unlock();
  s.changed.notify_all();
}

void GzipSink::Finish() {
  State& s = *state_;
  if (!pending_.empty()) Submit();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.finishing = true;
  }
  s.changed.notify_all();
  s.worker.join();
  if (s.error) std::rethrow_exception(s.error);
}

}  // namespace proftools
