// Byte-string keys -> ids 1, 2, ... in order of insertion: open addressing with linear probing
// over views whose bytes outlive the index. For hot paths with millions of keys (the pprof
// reader's stacks), where std::unordered_map would allocate, and later free, a node per key.
#ifndef PROFTOOLS_COMMON_BASE_VIEW_INDEX_H_
#define PROFTOOLS_COMMON_BASE_VIEW_INDEX_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/base/bytes_hash.h"

namespace proftools {

class ViewIndex {
 public:
  // The id of `key`; a new key gets the next id and *inserted is set.
  uint64_t Intern(std::string_view key, bool* inserted) {
    return Intern(key, HashBytes(key), inserted);
  }

  // Room for `keys` keys without growing (a caller that knows how many may come: the pprof
  // reader's samples), up to 2^20 of them: growing several times was 2% of a fleet merge, and
  // a count from hostile input must not reserve gigabytes.
  void Reserve(size_t keys) {
    keys = std::min<size_t>(keys, size_t{1} << 20);
    size_t slots = std::max<size_t>(1024, slots_.size());
    while (slots < 2 * keys) slots *= 2;
    if (slots > slots_.size()) Rehash(slots);
  }

  // The same in two steps, for a caller with other work to do meanwhile: Prefetch(hash) starts
  // fetching the key's slot (a cache miss in a large table), Intern(key, hash, ...) uses it.
  // `hash` must be HashBytes(key).
  void Prefetch(uint64_t hash) const {
    // Branch-free (an empty table prefetches its null data()): GCC 12 drops a prefetch that is
    // the only statement under an if.
    const size_t n = slots_.size();
    __builtin_prefetch(slots_.data() + (static_cast<size_t>(hash) & (n - (n != 0))));
  }
  uint64_t Intern(std::string_view key, uint64_t hash, bool* inserted) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = static_cast<size_t>(hash) & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (slot.id == 0) break;
      if (slot.size == key.size() && std::string_view(slot.data, slot.size) == key) {
        *inserted = false;
        return slot.id;
      }
    }
    slots_[i] = {key.data(), static_cast<uint32_t>(key.size()), ++size_};
    *inserted = true;
    return size_;
  }

 private:
  struct Slot {  // 16 bytes: the table is 2 to 4 slots per key
    const char* data;
    uint32_t size;  // a key is one sample's bytes: < 2 GiB
    uint32_t id;    // 0: empty; ids <= samples < 2^31
  };

  size_t Home(std::string_view key) const {
    return static_cast<size_t>(HashBytes(key)) & (slots_.size() - 1);
  }

  void Grow() { Rehash(std::max<size_t>(1024, slots_.size() * 2)); }

  void Rehash(size_t slot_count) {
    std::vector<Slot> old(slot_count, Slot{nullptr, 0, 0});
    old.swap(slots_);
    // Rehashing reads every key, scattered in memory: fetching those a few slots ahead overlaps
    // the cache misses instead of taking them one after another.
    constexpr size_t kAhead = 8;
    for (size_t j = 0; j < old.size(); ++j) {
      if (j + kAhead < old.size() && old[j + kAhead].id != 0) {
        const Slot& next = old[j + kAhead];
        __builtin_prefetch(next.data);
        __builtin_prefetch(next.data + next.size / 2);
        __builtin_prefetch(next.data + next.size);
      }
      const Slot& slot = old[j];
      if (slot.id == 0) continue;
      size_t i = Home(std::string_view(slot.data, slot.size));
      while (slots_[i].id != 0) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  uint32_t size_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_VIEW_INDEX_H_
