// A map from 64-bit keys to 32-bit indices with open addressing: for hot loops that look up
// millions of small keys (a call graph's edges, per sample frame), where a node-based
// std::unordered_map spends its time in allocation and cache misses.
#ifndef PROFTOOLS_COMMON_BASE_FLAT_INDEX_H_
#define PROFTOOLS_COMMON_BASE_FLAT_INDEX_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace proftools {

// The slot a key starts from: Fibonacci hashing of the key (a pair's halves mixed first).
inline uint64_t FlatHash(uint64_t key) {
  return key * 0x9E3779B97F4A7C15ULL;
}
inline uint64_t FlatHash(uint32_t key) {
  return FlatHash(uint64_t{key});
}
inline uint64_t FlatHash(const std::pair<uint64_t, uint64_t>& key) {
  return (key.first * 0x9E3779B97F4A7C15ULL ^ key.second) * 0xC2B2AE3D27D4EB4FULL;
}

// Key is uint64_t, or uint32_t for half the memory where keys fit, or a pair of uint64_t (an
// entry keyed by two numbers: a stack and its labels).
template <typename Key>
class BasicFlatIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // The index of `key`, or kAbsent.
  uint32_t Find(Key key) const {
    if (slots_.empty()) return kAbsent;
    const size_t mask = slots_.size() - 1;
    for (size_t at = Home(key, mask);; at = (at + 1) & mask) {
      if (slots_[at].second == kAbsent) return kAbsent;
      if (slots_[at].first == key) return slots_[at].second;
    }
  }

  // The index of `key`; when absent, `key` gets `index` (and *added is set).
  uint32_t FindOrAdd(Key key, uint32_t index, bool* added) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    size_t at = Home(key, mask);
    for (; slots_[at].second != kAbsent; at = (at + 1) & mask) {
      if (slots_[at].first == key) {
        *added = false;
        return slots_[at].second;
      }
    }
    slots_[at] = {key, index};
    ++size_;
    *added = true;
    return index;
  }

  size_t size() const { return size_; }
  // Room for `count` keys without growing again (a reader that knows how many it will add).
  void Reserve(size_t count) {
    size_t slots = std::max<size_t>(64, slots_.size());
    while (slots < count * 2) slots *= 2;
    if (slots > slots_.size()) Rehash(slots);
  }
  // Empties the index but keeps its memory, for one reused over and over at about one size.
  void Reset() {
    std::fill(slots_.begin(), slots_.end(), std::pair<Key, uint32_t>{Key{}, kAbsent});
    size_ = 0;
  }
  void Clear() {
    slots_.clear();
    slots_.shrink_to_fit();
    size_ = 0;
  }

 private:
  // The product's high half folded into its low one: keys that differ only in their high
  // bits (a node number << 32 | a small name number) differ in their slots too (bits 20 and
  // up of the product alone gave such keys nine bits of difference: a million of them took
  // seconds of probing).
  static size_t Home(const Key& key, size_t mask) {
    const uint64_t hash = FlatHash(key);
    return static_cast<size_t>(hash ^ (hash >> 32)) & mask;
  }
  void Grow() { Rehash(std::max<size_t>(64, slots_.size() * 2)); }
  void Rehash(size_t slots) {
    std::vector<std::pair<Key, uint32_t>> old = std::move(slots_);
    slots_.assign(slots, {Key{}, kAbsent});
    const size_t mask = slots_.size() - 1;
    for (const auto& slot : old) {
      if (slot.second == kAbsent) continue;
      size_t at = Home(slot.first, mask);
      while (slots_[at].second != kAbsent) at = (at + 1) & mask;
      slots_[at] = slot;
    }
  }

  std::vector<std::pair<Key, uint32_t>> slots_;
  size_t size_ = 0;
};

using FlatIndex = BasicFlatIndex<uint64_t>;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_FLAT_INDEX_H_
