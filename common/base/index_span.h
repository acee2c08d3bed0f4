// A run of uint32_t indices inside one array: what a compressed adjacency list (the start of
// each node's run in one array, its members in another) gives for a node, without a vector a node;
// and IndexGroups, such a list made by grouping items by a key.
#ifndef PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_
#define PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

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

// Items 0 .. count - 1 grouped by a key in one array, each group's items in their order: of(k).
// key_of(i) is item i's group (below `groups`), or kNoGroup to leave it out. A counting sort:
// two passes over the items, no vector a group.
class IndexGroups {
 public:
  static constexpr uint32_t kNoGroup = UINT32_MAX;
  template <typename KeyOf>
  IndexGroups(size_t groups, size_t count, KeyOf key_of) : start_(groups + 2, 0) {
    for (size_t i = 0; i < count; ++i) {
      const uint32_t key = key_of(i);
      if (key != kNoGroup) ++start_[key + 2];
    }
    for (size_t k = 2; k < start_.size(); ++k) start_[k] += start_[k - 1];
    members_.resize(start_.back());
    for (size_t i = 0; i < count; ++i) {
      const uint32_t key = key_of(i);
      if (key != kNoGroup) members_[start_[key + 1]++] = static_cast<uint32_t>(i);
    }
  }
  IndexSpan of(uint32_t group) const {
    return {members_.data() + start_[group], members_.data() + start_[group + 1]};
  }

 private:
  std::vector<size_t> start_;  // of(k) is members_[start_[k], start_[k + 1])
  std::vector<uint32_t> members_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_INDEX_SPAN_H_
