// Tables of definitions keyed by id, and the whole-profile container built on them.
#ifndef PROFTOOLS_COMMON_MODEL_DEFINITIONS_H_
#define PROFTOOLS_COMMON_MODEL_DEFINITIONS_H_

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// Records of one kind in declaration order, with lookup by id.
template <typename T>
class IdTable {
 public:
  // Adds `record`; returns false (and adds nothing) when its id is already present.
  bool Add(T record) {
    auto inserted = index_.emplace(record.id, items_.size());
    if (!inserted.second) return false;
    items_.push_back(std::move(record));
    return true;
  }
  const T* Find(uint64_t id) const {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &items_[it->second];
  }
  const std::vector<T>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void Clear() {
    items_.clear();
    index_.clear();
  }
  bool operator==(const IdTable& o) const { return items_ == o.items_; }

 private:
  std::vector<T> items_;
  std::unordered_map<uint64_t, size_t> index_;
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
