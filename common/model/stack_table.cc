#include "common/model/stack_table.h"

#include <functional>
#include <string_view>

namespace proftools {

std::string_view StackTable::Encoded(uint64_t id) const {
  const uint64_t begin = offsets_[id - 1];
  const uint64_t end = id < offsets_.size() ? offsets_[id] : arena_.size();
  return std::string_view(arena_).substr(begin, end - begin);
}

void StackTable::Insert(uint64_t hash, uint64_t id) {
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].id != 0) i = (i + 1) & mask;
  slots_[i] = Slot{hash, id};
}

void StackTable::Rebuild(size_t slot_count) {
  slots_.assign(slot_count, Slot{});
  for (size_t i = 0; i < offsets_.size(); ++i) Insert(hashes_[i], i + 1);
}

void StackTable::Prepare(const std::vector<uint64_t>& location_ids, Key* key) const {
  // Encoded into room for the longest varints, then copied (byte by byte, push_back cost a
  // quarter of a large merge's interning; and resizing the key to that room first zeroed it,
  // which cost as much as the encoding). Most keys fit the buffer on the stack.
  std::string& bytes = key->bytes;
  constexpr size_t kOnStack = 64;
  char buffer[kOnStack * 10];
  const size_t room = location_ids.size() * 10;
  if (room > sizeof buffer) bytes.resize(room);
  char* const begin = room > sizeof buffer ? bytes.data() : buffer;
  char* at = begin;
  for (uint64_t value : location_ids) {
    while (value >= 0x80) {
      *at++ = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    *at++ = static_cast<char>(value);
  }
  if (begin == buffer) {
    bytes.assign(buffer, static_cast<size_t>(at - buffer));
  } else {
    bytes.resize(static_cast<size_t>(at - begin));
  }
  // The empty stack encodes to nothing; its length tells it from others in the arena.
  key->hash = std::hash<std::string_view>()(bytes) ^ location_ids.size();
  Fetch(key->hash);
}

void StackTable::PrepareBytes(Key* key) const {
  key->hash = std::hash<std::string_view>()(key->bytes);
  Fetch(key->hash);
}

void StackTable::Fetch(uint64_t hash) const {
  // Where the slot is now (a table that grows before Intern has it elsewhere: no matter).
  const size_t n = slots_.size();
  __builtin_prefetch(slots_.data() + (hash & (n - (n != 0))));
}

uint64_t StackTable::Intern(const std::vector<uint64_t>& location_ids, bool* is_new) {
  Prepare(location_ids, &scratch_);
  return InternPrepared(scratch_, is_new);
}

uint64_t StackTable::InternPrepared(const Key& key, bool* is_new) {
  if ((offsets_.size() + 1) * 2 > slots_.size()) {
    Rebuild(slots_.empty() ? 1024 : slots_.size() * 2);
  }
  const uint64_t hash = key.hash;
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask; slots_[i].id != 0; i = (i + 1) & mask) {
    if (slots_[i].hash == hash && Encoded(slots_[i].id) == key.bytes) {
      *is_new = false;
      return slots_[i].id;
    }
  }
  offsets_.push_back(arena_.size());
  hashes_.push_back(hash);
  arena_ += key.bytes;
  const uint64_t id = offsets_.size();
  Insert(hash, id);
  *is_new = true;
  return id;
}

void StackTable::TruncateTo(size_t count) {
  if (count >= offsets_.size()) return;
  arena_.resize(offsets_[count]);
  offsets_.resize(count);
  hashes_.resize(count);
  Rebuild(slots_.size());
}

}  // namespace proftools
