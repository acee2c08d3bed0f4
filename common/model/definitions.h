// Tables of definitions keyed by id, and the whole-profile container built on them.
#ifndef PROFTOOLS_COMMON_MODEL_DEFINITIONS_H_
#define PROFTOOLS_COMMON_MODEL_DEFINITIONS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/base/id_table.h"
#include "common/model/model.h"

namespace proftools {

// How many definitions a producer is about to give, as far as it knows (0: unknown):
// ProfileSink::OnExpect.
struct ExpectedDefinitions {
  uint64_t functions = 0, locations = 0, stacks = 0;
  // What a sink makes room for at most: a count past it is no hint (0).
  static constexpr uint64_t kMost = uint64_t{1} << 26;
  static uint64_t Room(uint64_t count) { return count <= kMost ? count : 0; }
};

// Records of one kind in declaration order, with lookup by id.
template <typename T>
class IdTable {
 public:
  // Adds `record`; returns false (and adds nothing) when its id is already present.
  bool Add(T record) {
    uint64_t existing;
    if (!index_.Insert(record.id, items_.size(), &existing)) return false;
    items_.push_back(std::move(record));
    return true;
  }
  const T* Find(uint64_t id) const {
    uint64_t at;
    return index_.Find(id, &at) ? &items_[at] : nullptr;
  }
  const std::vector<T>& items() const { return items_; }
  // Room for `count` records with ids 1 to `count`, before the first is added (a count past
  // ExpectedDefinitions::kMost: none).
  void Reserve(uint64_t count) {
    count = ExpectedDefinitions::Room(count);
    if (!items_.empty() || count == 0) return;
    items_.reserve(static_cast<size_t>(count));
    index_.Reserve(count);
  }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void Clear() {
    items_.clear();
    index_.Clear();
  }
  bool operator==(const IdTable& o) const { return items_ == o.items_; }

 private:
  std::vector<T> items_;
  // Ids are mostly 1, 2, 3 ... (every converter's interner gives them so): looked up in a flat
  // vector, not a node per record (a call graph's 200,000 stacks were 10% of a pstats report).
  IdMap index_;
};

struct Definitions {
  IdTable<Mapping> mappings;
  IdTable<Function> functions;
  IdTable<Location> locations;
  IdTable<Stack> stacks;
  bool operator==(const Definitions& o) const {
    return mappings == o.mappings && functions == o.functions && locations == o.locations &&
           stacks == o.stacks;
  }
};

// A whole profile in memory. Streaming code should prefer a ProfileSink (sink.h): this holds
// every sample.
struct Profile {
  ProfileHeader header;
  Definitions defs;
  std::vector<Sample> samples;
  bool operator==(const Profile& o) const {
    return header == o.header && defs == o.defs && samples == o.samples;
  }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_DEFINITIONS_H_
