// Small ids for distinct strings, and a hash for sequences of such ids: reports that hold many
// lines made of the same few names (traces, folded stacks) keep each line as 4-byte ids instead
// of copies of the names.
#ifndef PROFTOOLS_COMMON_BASE_STRING_IDS_H_
#define PROFTOOLS_COMMON_BASE_STRING_IDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace proftools {

class StringIds {
 public:
  // The id of `text`: 0, 1, 2, ... in order of first appearance.
  uint32_t Intern(std::string text) {
    auto [it, added] = ids_.try_emplace(std::move(text), static_cast<uint32_t>(texts_.size()));
    if (added) texts_.push_back(&it->first);
    return it->second;
  }
  const std::string& Text(uint32_t id) const { return *texts_[id]; }
  size_t size() const { return texts_.size(); }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<const std::string*> texts_;  // id -> text (keys of ids_, which never move)
};

struct IdSequenceHash {
  size_t operator()(const std::vector<uint32_t>& ids) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t id : ids) h = (h ^ id) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 31));
  }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_STRING_IDS_H_
