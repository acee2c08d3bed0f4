#include "common/speedscope/track_records.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

constexpr size_t kBufferBytes = size_t{1} << 20;
constexpr size_t kPerTrackRecords = 128;  // Finish's buffer per track

}  // namespace

TrackRecords::TrackRecords(std::string name, size_t width)
    : name_(std::move(name)), width_(width) {}
TrackRecords::~TrackRecords() = default;

void TrackRecords::WriteAt(int fd, uint64_t offset, const void* data, size_t size) const {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = pwrite(fd, bytes, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw ProfError(name_, std::string("cannot write a temporary file: ") +
                                 std::strerror(n < 0 ? errno : ENOSPC));
    }
    bytes += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
}

void TrackRecords::Add(uint32_t track, const int64_t* record) {
  if (track >= counts_.size()) counts_.resize(track + 1, 0);
  ++counts_[track];
  buffer_.push_back(track);
  buffer_.insert(buffer_.end(), record, record + width_);
  ++total_;
  if (buffer_.size() * sizeof(int64_t) >= kBufferBytes) {
    const size_t bytes = buffer_.size() * sizeof(int64_t);
    WriteAt(added_.fd(), total_ * stored_words() * sizeof(int64_t) - bytes, buffer_.data(), bytes);
    buffer_.clear();
  }
}

void TrackRecords::Read(int fd, uint64_t first, uint64_t count,
                        const std::function<void(const int64_t*)>& each) const {
  const size_t words = stored_words();
  const size_t per_chunk = std::max<size_t>(1, kBufferBytes / sizeof(int64_t) / words);
  std::vector<int64_t> chunk(per_chunk * words);
  uint64_t offset = first * words * sizeof(int64_t);
  while (count > 0) {
    const size_t want = count < per_chunk ? static_cast<size_t>(count) : per_chunk;
    const size_t bytes = want * words * sizeof(int64_t);
    size_t got = 0;
    while (got < bytes) {
      const ssize_t n = pread(fd, reinterpret_cast<char*>(chunk.data()) + got, bytes - got,
                              static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw ProfError(name_, std::string("cannot read a temporary file back: ") +
                                   (n < 0 ? std::strerror(errno) : "it is shorter than written"));
      }
      got += static_cast<size_t>(n);
    }
    for (size_t i = 0; i < want; ++i) each(chunk.data() + i * words);
    offset += bytes;
    count -= want;
  }
}

void TrackRecords::Finish() {
  const size_t words = stored_words();
  if (!buffer_.empty()) {
    const size_t bytes = buffer_.size() * sizeof(int64_t);
    WriteAt(added_.fd(), total_ * words * sizeof(int64_t) - bytes, buffer_.data(), bytes);
    std::vector<int64_t>().swap(buffer_);
  }
  firsts_.assign(counts_.size(), 0);
  for (size_t t = 1; t < counts_.size(); ++t) firsts_[t] = firsts_[t - 1] + counts_[t - 1];
  if (counts_.size() <= 1) return;  // one track: the records are in its order already
  sorted_ = std::make_unique<SpoolFile>();
  std::vector<uint64_t> next = firsts_;  // where each track's next record goes
  std::vector<std::vector<int64_t>> pending(counts_.size());
  const auto flush = [&](size_t track) {
    std::vector<int64_t>& records = pending[track];
    WriteAt(sorted_->fd(), next[track] * words * sizeof(int64_t), records.data(),
            records.size() * sizeof(int64_t));
    next[track] += records.size() / words;
    records.clear();
  };
  Read(added_.fd(), 0, total_, [&](const int64_t* stored) {
    const size_t track = static_cast<size_t>(stored[0]);
    std::vector<int64_t>& records = pending[track];
    records.insert(records.end(), stored, stored + words);
    if (records.size() >= kPerTrackRecords * words) flush(track);
  });
  for (size_t t = 0; t < pending.size(); ++t) {
    if (!pending[t].empty()) flush(t);
    std::vector<int64_t>().swap(pending[t]);
  }
}

void TrackRecords::ForEach(uint32_t track, const std::function<void(const int64_t*)>& each) const {
  if (track >= counts_.size() || counts_[track] == 0) return;
  const int fd = sorted_ ? sorted_->fd() : added_.fd();
  Read(fd, firsts_[track], counts_[track], [&](const int64_t* stored) { each(stored + 1); });
}

}  // namespace proftools
