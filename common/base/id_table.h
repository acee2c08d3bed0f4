// A map from ids to 64-bit values (the line an id was defined on, the id it was renumbered
// to, ...), for the per-record lookups of the checker and the canonical writer.
//
// Ids in real files are mostly dense (1, 2, 3, ...), so ids up to a bound that grows with the
// number of entries live in a flat vector; other ids (sparse, huge, hostile) go to a hash map.
// Memory stays proportional to the number of ids either way.
#ifndef PROFTOOLS_COMMON_BASE_ID_TABLE_H_
#define PROFTOOLS_COMMON_BASE_ID_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace proftools {

class IdMap {
 public:
  // Maps `id` to `value`. Returns false (and changes nothing) when `id` is already present;
  // *existing is then its value.
  bool Insert(uint64_t id, uint64_t value, uint64_t* existing) {
    // Inline for an id in the dense part (most ids of real files): a million calls a merge.
    if (id < dense_.size()) {
      if (dense_[id] != 0) {
        *existing = dense_[id] - 1;
        return false;
      }
      dense_[id] = value + 1;
      ++size_;
      return true;
    }
    return InsertOutsideDense(id, value, existing);
  }
  // The value of `id`, or false when absent.
  bool Find(uint64_t id, uint64_t* value) const {
    if (id < dense_.size()) {
      if (dense_[id] == 0) return false;
      *value = dense_[id] - 1;
      return true;
    }
    auto it = sparse_.find(id);
    if (it == sparse_.end()) return false;
    *value = it->second;
    return true;
  }
  bool Contains(uint64_t id) const {
    uint64_t ignored;
    return Find(id, &ignored);
  }
  size_t size() const { return size_; }

  // Forgets every entry. The dense part's memory is kept for the next ids unless it is large
  // for the entries it held (a merge clears its per-input maps for each input: growing them
  // again from nothing, copying and zeroing at each doubling, cost a fleet's merge 10 M
  // instructions).
  void Clear();
  // Before the first Insert: ids up to `max_id` go to the dense part from the start (a reader
  // that knows how many records come, whose ids are mostly 1 to that number).
  void Reserve(uint64_t max_id);

 private:
  // Insert for an id beyond the dense part: grows it, or goes to the sparse map.
  bool InsertOutsideDense(uint64_t id, uint64_t value, uint64_t* existing);

  // dense_[id] is value + 1 (0: absent); values are never UINT64_MAX.
  std::vector<uint64_t> dense_;
  std::unordered_map<uint64_t, uint64_t> sparse_;
  size_t size_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_ID_TABLE_H_
