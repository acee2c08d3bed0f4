// A stable sort of records by a small unsigned key (an LSD radix sort): for the hot paths that
// group millions of records by key (a call graph's edges, one record per frame of every stack),
// where a hash table's lookups are one cache miss each and this is a few sequential passes.
#ifndef PROFTOOLS_COMMON_BASE_RADIX_SORT_H_
#define PROFTOOLS_COMMON_BASE_RADIX_SORT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace proftools {

// The bits a key below `limit` needs (0 for a limit of 0 or 1).
inline int BitsBelow(uint64_t limit) {
  if (limit <= 1) return 0;
  int bits = 0;
  while (bits < 64 && (limit - 1) >> bits != 0) ++bits;
  return bits;
}

// Sorts `items` by key(item), each below 2^key_bits, keeping the order of items with equal keys.
// Passes of at most 11 bits (a count table that stays in the first-level cache); a copy of the
// items is the extra memory.
template <typename T, typename KeyOf>
void StableRadixSort(std::vector<T>* items, int key_bits, KeyOf key) {
  if (items->size() < 2 || key_bits <= 0) return;
  const int passes = (key_bits + 10) / 11;
  const int width = (key_bits + passes - 1) / passes;
  const uint64_t mask = (uint64_t{1} << width) - 1;
  std::vector<T> scratch(items->size());
  std::vector<size_t> start(size_t{1} << width);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * width;
    std::fill(start.begin(), start.end(), 0);
    for (const T& item : *items) ++start[(key(item) >> shift) & mask];
    size_t sum = 0;
    for (size_t& at : start) sum += std::exchange(at, sum);
    for (const T& item : *items) scratch[start[(key(item) >> shift) & mask]++] = item;
    items->swap(scratch);
  }
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_RADIX_SORT_H_
