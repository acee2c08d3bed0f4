#include "common/base/id_table.h"

#include <algorithm>
#include <cstdint>

namespace proftools {

bool IdMap::InsertOutsideDense(uint64_t id, uint64_t value, uint64_t* existing) {
  // Grow the dense part only as far as twice the number of entries (plus a start): a file with
  // one id of 10^12 must not allocate terabytes.
  if (id >= dense_.size() && id < 2 * size_ + 4096) {
    // From a small start: a merge of a fleet makes a dozen maps per input, and zeroing 32 KiB
    // for each was a fiftieth of its work.
    size_t grown = dense_.empty() ? 64 : dense_.size();
    while (grown <= id) grown *= 2;
    dense_.resize(grown, 0);
    // Ids that were sparse but now fall in the dense range move over.
    for (auto it = sparse_.begin(); it != sparse_.end();) {
      if (it->first < dense_.size()) {
        dense_[it->first] = it->second + 1;
        it = sparse_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (id < dense_.size()) {
    if (dense_[id] != 0) {
      *existing = dense_[id] - 1;
      return false;
    }
    dense_[id] = value + 1;
  } else {
    auto inserted = sparse_.emplace(id, value);
    if (!inserted.second) {
      *existing = inserted.first->second;
      return false;
    }
  }
  ++size_;
  return true;
}

void IdMap::Clear() {
  // Zeroing costs what the entries did, as growing did: the dense part grows only while
  // ids stay below twice the entries and a start (InsertOutsideDense).
  if (dense_.size() > 4 * size_ + 8192) {
    std::vector<uint64_t>().swap(dense_);
  } else {
    std::fill(dense_.begin(), dense_.end(), 0);
  }
  sparse_.clear();
  size_ = 0;
}

void IdMap::Reserve(uint64_t max_id) {
  if (size_ == 0 && max_id < SIZE_MAX / sizeof(uint64_t) && max_id >= dense_.size()) {
    dense_.assign(static_cast<size_t>(max_id) + 1, 0);
  }
}

}  // namespace proftools
