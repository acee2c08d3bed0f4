#include "common/perf/perf_pipeline.h"

#include <algorithm>
#include <cstring>

namespace proftools {

PerfPipelinedReader::PerfPipelinedReader(ByteStream* stream, size_t block_bytes, size_t max_line)
    : stream_(stream), block_bytes_(block_bytes == 0 ? 1 : block_bytes), max_line_(max_line) {
  thread_ = std::thread([this] { Produce(); });
}

PerfPipelinedReader::~PerfPipelinedReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  thread_.join();
}

std::string_view PerfPipelinedReader::line() const {
  return entry_->kind == Kind::kHeader ? batch_->headers[entry_->index].line : entry_->text;
}

std::string_view PerfPipelinedReader::frame_text() const {
  return entry_->kind == Kind::kHeader ? batch_->headers[entry_->index].frame_text : entry_->text;
}

bool PerfPipelinedReader::Next() {
  while (true) {
    if (batch_ != nullptr && position_ < batch_->entries.size()) {
      entry_ = &batch_->entries[position_++];
      return true;
    }
    if (batch_ != nullptr) {
      if (batch_->error) std::rethrow_exception(batch_->error);
      if (batch_->last) return false;
    }
    std::unique_ptr<Batch> next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [&] { return !queue_.empty(); });
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    entry_ = nullptr;
    std::swap(batch_, next);  // the batch before: its lines have all been read
    position_ = 0;
    if (next != nullptr) {
      std::lock_guard<std::mutex> lock(mutex_);
      spare_.push_back(std::move(next));
    }
    room_.notify_one();
  }
}

void PerfPipelinedReader::Push(std::unique_ptr<Batch> batch) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return stopping_ || queue_.size() < kBlocksInFlight; });
    if (stopping_) return;
    queue_.push_back(std::move(batch));
  }
  ready_.notify_one();
}

std::unique_ptr<PerfPipelinedReader::Batch> PerfPipelinedReader::EmptyBatch() {
  std::unique_ptr<Batch> batch;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_.empty()) {
      batch = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (batch == nullptr) return std::make_unique<Batch>();
  batch->entries.clear();
  batch->headers.clear();
  batch->records.clear();
  return batch;
}

bool PerfPipelinedReader::ReadBlock(Batch* batch, size_t* size, uint64_t lines_before) {
  size_t capacity = std::max(block_bytes_, carry_.size() + 1);
  if (batch->capacity < capacity) {
    batch->bytes.reset(new char[capacity]);
    batch->capacity = capacity;
  }
  capacity = batch->capacity;
  size_t filled = carry_.size();
  if (filled > 0) std::memcpy(batch->bytes.get(), carry_.data(), filled);
  carry_.clear();
  size_t searched = 0;  // bytes known to hold no newline
  while (true) {
    while (!eof_ && filled < capacity) {
      const size_t n = stream_->Read(batch->bytes.get() + filled, capacity - filled);
      if (n == 0) eof_ = true;
      filled += n;
    }
    if (eof_) {  // the rest: whole lines, and maybe a last one without its newline
      *size = filled;
      return filled > 0;
    }
    const char* bytes = batch->bytes.get();
    size_t end = filled;
    while (end > searched && bytes[end - 1] != '\n') --end;
    if (end > searched) {
      carry_.assign(bytes + end, bytes + filled);
      *size = end;
      return true;
    }
    // No line ends in the block: a line longer than it (the block starts at a line's start).
    if (filled > max_line_) throw LineReader::LineTooLong("", lines_before + 1, max_line_);
    searched = filled;
    std::unique_ptr<char[]> bigger(new char[capacity * 2]);
    std::memcpy(bigger.get(), bytes, filled);
    batch->bytes = std::move(bigger);
    capacity *= 2;
    batch->capacity = capacity;
  }
}

void PerfPipelinedReader::Classify(std::string_view block, Batch* batch) {
  reader_.ContinueWith(block, max_line_);
  batch->entries.reserve(block.size() / 32);
  while (reader_.Next()) {
    Entry entry{reader_.kind(), false, 0, 0, reader_.line(), reader_.line_number()};
    switch (entry.kind) {
      case Kind::kFrame:
        entry.text = reader_.frame_text();
        break;
      case Kind::kSrcline:
        entry.text = reader_.src_file();
        entry.number = reader_.src_line();
        entry.flag = reader_.src_inlined();
        break;
      case Kind::kHeader:
        entry.flag = reader_.header_frame();
        entry.index = batch->headers.size();
        batch->headers.push_back(
            HeaderLine{reader_.header(), reader_.line(), reader_.frame_text()});
        break;
      case Kind::kRecord:
        entry.index = batch->records.size();
        batch->records.push_back(reader_.record());
        break;
      case Kind::kBlank:
      case Kind::kComment:
      case Kind::kUnknown:
        break;
    }
    batch->entries.push_back(entry);
  }
}

void PerfPipelinedReader::Produce() {
  while (true) {
    std::unique_ptr<Batch> batch = EmptyBatch();
    try {
      size_t size = 0;
      if (!ReadBlock(batch.get(), &size, reader_.line_number())) {
        batch->last = true;
      } else {
        Classify(std::string_view(batch->bytes.get(), size), batch.get());
      }
    } catch (...) {
      batch->error = std::current_exception();
      batch->last = true;
    }
    const bool last = batch->last;
    Push(std::move(batch));
    if (last) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
  }
}

}  // namespace proftools
