#include "common/perf/perf_batch_reader.h"

namespace proftools {

PerfBatchReader::PerfBatchReader(ByteStream* stream) : stream_(stream) {
  thread_ = std::thread([this] { Produce(); });
}

PerfBatchReader::~PerfBatchReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PerfBatchReader::Produce() {
  LineReader reader(stream_);
  bool more = true;
  while (more) {
    std::unique_ptr<Batch> batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || ready_.size() < kInFlight; });
      if (stop_) return;
      if (!spare_.empty()) {
        batch = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    if (!batch) batch = std::make_unique<Batch>();
    batch->bytes.clear();
    batch->ends.clear();
    batch->error = nullptr;
    batch->first_line = reader.line_number() + 1;
    try {
      std::string_view line;
      // A batch ends past kBatchBytes, or before 4 GiB, which its 32-bit ends cannot pass.
      while (batch->bytes.size() < kBatchBytes) {
        if (!reader.Next(&line)) {
          more = false;
          break;
        }
        batch->bytes.append(line.data(), line.size());
        batch->ends.push_back(static_cast<uint32_t>(batch->bytes.size()));
      }
    } catch (...) {
      batch->error = std::current_exception();
      more = false;
    }
    batch->last = !more;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_.push_back(std::move(batch));
    }
    changed_.notify_all();
  }
}

bool PerfBatchReader::Next() {
  while (batch_ == nullptr || next_ == batch_->ends.size()) {
    if (batch_ != nullptr) {
      if (batch_->error) std::rethrow_exception(batch_->error);
      if (batch_->last) return false;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (batch_ != nullptr) spare_.push_back(std::move(batch_));
    changed_.wait(lock, [&] { return !ready_.empty(); });
    batch_ = std::move(ready_.front());
    ready_.pop_front();
    next_ = 0;
    lock.unlock();
    changed_.notify_all();
  }
  const size_t begin = next_ == 0 ? 0 : batch_->ends[next_ - 1];
  const size_t end = batch_->ends[next_];
  lines_.ClassifyLine(std::string_view(batch_->bytes.data() + begin, end - begin),
                      batch_->first_line + next_);
  ++next_;
  return true;
}

}  // namespace proftools
