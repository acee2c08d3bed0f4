// A run of uint32_t indices inside one array: what a compressed adjacency list (the start of
// each node's run in one array, its members in another) gives for a node, without a vector a node.
#ifndef PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_
#define PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace proftools {

struct IndexSpan {
  const uint32_t* first;
  const uint32_t* last;
  const uint32_t* begin() const { return first; }
  const uint32_t* end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
  uint32_t operator[](size_t i) const { return first[i]; }
  std::reverse_iterator<const uint32_t*> rbegin() const {
    return std::reverse_iterator<const uint32_t*>(last);
  }
  std::reverse_iterator<const uint32_t*> rend() const {
    return std::reverse_iterator<const uint32_t*>(first);
  }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_
