#include "common/merge/read_ahead.h"

#include <sys/stat.h>

#include <utility>

namespace proftools {
namespace {

// Inputs this size or smaller (on disk) let a second one be read ahead of them.
constexpr off_t kSmallInput = off_t{4} << 20;
constexpr size_t kMostAhead = 2;

// Standard input and pipes have no size known in advance: they count as large.
bool IsSmallFile(const std::string& path) {
  struct stat st;
  return path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         st.st_size <= kSmallInput;
}

}  // namespace

ReadAhead::ReadAhead(const Merger* merger, std::vector<std::string> paths)
    : merger_(merger), paths_(std::move(paths)) {}

void ReadAhead::Fill() {
  while (started_ < paths_.size() && ahead_.size() < kMostAhead &&
         (ahead_.empty() || ahead_.back().small)) {
    const std::string& path = paths_[started_++];
    const std::string uri = path == "-" ? std::string() : path;
    ahead_.push_back(Ahead{merger_->Prefetch(path, uri), IsSmallFile(path)});
  }
}

std::unique_ptr<PrefetchedInput> ReadAhead::Next() {
  Fill();
  if (ahead_.empty()) return nullptr;
  std::unique_ptr<PrefetchedInput> next = std::move(ahead_.front().input);
  ahead_.pop_front();
  Fill();
  return next;
}

}  // namespace proftools
