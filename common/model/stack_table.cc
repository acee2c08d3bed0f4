#include "common/model/stack_table.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "common/base/bytes_hash.h"

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
  slots_[i] = Slot{static_cast<uint32_t>(hash >> 32), static_cast<uint32_t>(id)};
}

void StackTable::Rebuild(size_t slot_count) {
  slots_.assign(slot_count, Slot{});
  for (size_t i = 0; i < offsets_.size(); ++i) Insert(hashes_[i], i + 1);
}

void StackTable::Prepare(const std::vector<uint64_t>& location_ids, Key* key) const {
  // Encoded into room for the longest varints (byte by byte, push_back cost a quarter of a
  // large merge's interning).
  char* const begin = key->Room(location_ids.size() * 10);
  char* at = begin;
  for (uint64_t value : location_ids) {
    while (value >= 0x80) {
      *at++ = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    *at++ = static_cast<char>(value);
  }
  key->set_size(static_cast<size_t>(at - begin));
  // The empty stack encodes to nothing; its length tells it from others in the arena.
  key->hash = HashBytes(key->bytes()) ^ location_ids.size();
  Fetch(key->hash);
}

void StackTable::Key::Reserve(size_t n, bool keep) {
  const size_t capacity = std::max({n, 2 * capacity_, size_t{64}});
  std::unique_ptr<char[]> data(new char[capacity]);
  if (keep && size_ > 0) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = capacity;
}

void StackTable::PrepareBytes(Key* key) const {
  key->hash = HashBytes(key->bytes());
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
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask; slots_[i].id != 0; i = (i + 1) & mask) {
    if (slots_[i].tag == tag && Encoded(slots_[i].id) == key.bytes()) {
      *is_new = false;
      return slots_[i].id;
    }
  }
  if (offsets_.size() >= UINT32_MAX) {
    throw std::length_error("more than 4 billion distinct keys to intern");
  }
  offsets_.push_back(arena_.size());
  hashes_.push_back(hash);
  arena_ += key.bytes();
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
