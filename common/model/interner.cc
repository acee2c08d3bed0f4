#include "common/model/interner.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/base/diagnostics.h"
#include "common/base/varint.h"

namespace proftools {
namespace {

inline void Mix(size_t* seed, size_t value) {
  // boost::hash_combine's mixing step.
  *seed ^= value + 0x9e3779b97f4a7c15ull + (*seed << 6) + (*seed >> 2);
}

inline size_t HashString(const std::string& s) {
  return std::hash<std::string>()(s);
}

}  // namespace

size_t Interner::Hash::operator()(const proftools::Mapping& m) const {
  size_t seed = m.start;
  Mix(&seed, m.limit);
  Mix(&seed, m.offset);
  Mix(&seed, HashString(m.file));
  Mix(&seed, HashString(m.build_id));
  Mix(&seed,
      m.has_functions | m.has_filenames << 1 | m.has_line_numbers << 2 | m.has_inline_frames << 3);
  return seed;
}

bool Interner::SameContent::operator()(const proftools::Mapping& a,
                                       const proftools::Mapping& b) const {
  return a.start == b.start && a.limit == b.limit && a.offset == b.offset && a.file == b.file &&
         a.build_id == b.build_id && a.has_functions == b.has_functions &&
         a.has_filenames == b.has_filenames && a.has_line_numbers == b.has_line_numbers &&
         a.has_inline_frames == b.has_inline_frames;
}

uint64_t Interner::Mapping(const proftools::Mapping& mapping) {
  auto it = mappings_.find(mapping);
  if (it != mappings_.end()) return it->second;
  const uint64_t id = mappings_.size() + 1;
  proftools::Mapping record = mapping;
  record.id = id;
  sink_->OnMapping(record);
  mappings_.emplace(std::move(record), id);
  return id;
}

namespace {

// A copy of `record` with id `id` goes to `emit` (the sink's OnFunction or OnLocation). The
// copy is made in `scratch`, whose strings and vectors keep their room from one record to the
// next (a fresh copy a record allocated each of its strings: a hundred thousand Python
// functions, three strings each).
template <typename Record, typename Emit>
uint64_t EmitAs(uint64_t id, const Record& record, Record* scratch, Emit emit) {
  *scratch = record;
  scratch->id = id;
  emit(*scratch);
  return id;
}

// Interns `key` in `table`; the first time, `record` with the id it got goes to `emit`.
template <typename Record, typename Emit>
uint64_t InternRecord(StackTable* table, const StackTable::Key& key, const Record& record,
                      Record* scratch, Emit emit) {
  bool is_new = false;
  const uint64_t id = table->InternPrepared(key, &is_new);
  return is_new ? EmitAs(id, record, scratch, emit) : id;
}

// A kind's definitions forgotten down to `keep`: the new ones' count, or the table.
void TruncateTo(StackTable* table, uint64_t* made_new, uint64_t keep) {
  if (*made_new != 0) {
    *made_new = std::min(*made_new, keep);
  } else {
    table->TruncateTo(keep);
  }
}

}  // namespace

uint64_t Interner::Function(const proftools::Function& function) {
  CheckWay("functions", true, functions_, new_functions_);
  // Written straight into the key, each string after its length, as LocationKey writes.
  const std::string* const strings[] = {&function.name, &function.system_name, &function.file};
  size_t most = 4 * kMaxVarintBytes;
  for (const std::string* s : strings) most += s->size();
  char* const begin = function_key_.Room(most);
  char* at = begin;
  for (const std::string* s : strings) {
    at = WriteVarint(at, s->size());
    if (!s->empty()) std::memcpy(at, s->data(), s->size());
    at += s->size();
  }
  at = WriteVarint(at, static_cast<uint64_t>(function.start_line));
  function_key_.set_size(static_cast<size_t>(at - begin));
  functions_.PrepareBytes(&function_key_);
  return InternRecord(&functions_, function_key_, function, &new_function_,
                      [this](const proftools::Function& f) { sink_->OnFunction(f); });
}

void Interner::LocationKey(const proftools::Location& location, StackTable::Key* key) {
  // The integers varint-encoded straight into the key (as StackTable::Prepare would encode
  // them from a vector: building the vector first cost a third of the key).
  char* const begin = key->Room((3 + 3 * location.lines.size()) * kMaxVarintBytes);
  char* at = WriteVarint(begin, location.mapping_id);
  at = WriteVarint(at, location.address);
  at = WriteVarint(at, location.is_folded);
  for (const Line& line : location.lines) {
    at = WriteVarint(at, line.function_id);
    at = WriteVarint(at, static_cast<uint64_t>(line.line));
    at = WriteVarint(at, static_cast<uint64_t>(line.column));
  }
  key->set_size(static_cast<size_t>(at - begin));
  locations_.PrepareBytes(key);
}

uint64_t Interner::InternLocation(const StackTable::Key& key, const proftools::Location& location) {
  CheckWay("locations", true, locations_, new_locations_);
  return InternRecord(&locations_, key, location, &new_location_,
                      [this](const proftools::Location& l) { sink_->OnLocation(l); });
}

void Interner::PrepareLocation(const proftools::Location& location, PreparedLocation* prepared) {
  prepared->location = location;  // the caller's may change before it is interned
  LocationKey(location, &prepared->key);
}

uint64_t Interner::InternPrepared(const PreparedLocation& prepared) {
  return InternLocation(prepared.key, prepared.location);
}

uint64_t Interner::Location(const proftools::Location& location) {
  // No copy of the location unless it is new: most lookups find it.
  LocationKey(location, &location_scratch_);
  return InternLocation(location_scratch_, location);
}

uint64_t Interner::InternPrepared(const PreparedStack& prepared) {
  CheckStackWay(true);
  bool is_new = false;
  const uint64_t id = stacks_.InternPrepared(prepared.key, &is_new);
  if (is_new) {
    CountFrames(prepared.location_ids.size());
    new_stack_.id = id;
    new_stack_.location_ids.assign(prepared.location_ids.begin(), prepared.location_ids.end());
    sink_->OnStack(new_stack_);
  }
  return id;
}

void Interner::CountFrames(size_t frames) {
  frames_ += frames;
  if (max_frames_ != 0 && frames_ > max_frames_) {
    throw ProfError(limit_name_,
                    "its stacks hold more than " + std::to_string(max_frames_) +
                        " frames in all: each distinct stack is kept whole, and this profile's "
                        "nest deeply with samples at many depths (raise the limit with "
                        "--max-input-size: 32 bytes a frame)");
  }
}

void Interner::CheckWay(const char* kind, bool by_content, const StackTable& table,
                        uint64_t made_new) {
  if (by_content ? made_new != 0 : table.size() != 0) {
    throw std::logic_error(std::string("Interner: ") + kind +
                           " interned by content and as new in one interner");
  }
}

uint64_t Interner::NewStack(const std::vector<uint64_t>& location_ids) {
  std::vector<uint64_t> lent = location_ids;
  return NewStack(&lent);
}

uint64_t Interner::NewStack(std::vector<uint64_t>* location_ids) {
  CheckStackWay(false);
  CountFrames(location_ids->size());
  new_stack_.id = ++new_stacks_;
  new_stack_.location_ids.swap(*location_ids);
  struct GiveBack {  // even when the sink throws
    std::vector<uint64_t>* lent;
    std::vector<uint64_t>* held;
    ~GiveBack() { lent->swap(*held); }
  } give_back{location_ids, &new_stack_.location_ids};
  sink_->OnStack(new_stack_);
  return new_stack_.id;
}

uint64_t Interner::NewFunction(const proftools::Function& function) {
  CheckWay("functions", false, functions_, new_functions_);
  return EmitAs(++new_functions_, function, &new_function_,
                [this](const proftools::Function& f) { sink_->OnFunction(f); });
}

uint64_t Interner::NewLocation(const proftools::Location& location) {
  CheckWay("locations", false, locations_, new_locations_);
  return EmitAs(++new_locations_, location, &new_location_,
                [this](const proftools::Location& l) { sink_->OnLocation(l); });
}

uint64_t Interner::Stack(const std::vector<uint64_t>& location_ids) {
  CheckStackWay(true);
  bool is_new = false;
  const uint64_t id = stacks_.Intern(location_ids, &is_new);
  if (is_new) {
    CountFrames(location_ids.size());
    new_stack_.id = id;
    new_stack_.location_ids.assign(location_ids.begin(), location_ids.end());
    sink_->OnStack(new_stack_);
  }
  return id;
}

namespace {

// Erases the entries of `map` whose id is above `keep` (ids are handed out 1, 2, 3, ...).
template <typename Map>
void EraseAbove(Map* map, size_t keep) {
  if (map->size() <= keep) return;
  for (auto it = map->begin(); it != map->end();) {
    it = it->second > keep ? map->erase(it) : std::next(it);
  }
}

}  // namespace

void Interner::Rollback(const Mark& mark) {
  EraseAbove(&mappings_, mark.mappings);
  TruncateTo(&functions_, &new_functions_, mark.functions);
  TruncateTo(&locations_, &new_locations_, mark.locations);
  TruncateTo(&stacks_, &new_stacks_, mark.stacks);
}

}  // namespace proftools
