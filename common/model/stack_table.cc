#include "common/model/stack_table.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "common/base/bytes_hash.h"
#include "common/base/diagnostics.h"
#include "common/base/varint.h"

namespace proftools {
std::string_view StackTable::Encoded(uint64_t id) const {
  const char* p = starts_[id - 1];
  uint64_t size = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(*p++);
    size |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  return std::string_view(p, static_cast<size_t>(size));
}

char* StackTable::Allocate(size_t n) {
  constexpr size_t kFirstBlock = 4096, kLargestBlock = size_t{1} << 20;
  if (blocks_.empty() || blocks_.back().size - blocks_.back().used < n) {
    const size_t grown =
        blocks_.empty() ? kFirstBlock : std::min(2 * blocks_.back().size, kLargestBlock);
    Block block;
    block.size = std::max(n, grown);
    block.data.reset(new char[block.size]);
    blocks_.push_back(std::move(block));
  }
  Block& block = blocks_.back();
  char* const at = block.data.get() + block.used;
  block.used += n;
  return at;
}

void StackTable::Insert(uint64_t hash, uint64_t id) {
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].id != 0) i = (i + 1) & mask;
  slots_[i] = Slot{static_cast<uint32_t>(hash >> 32), static_cast<uint32_t>(id)};
}

void StackTable::Rebuild(size_t slot_count) {
  slots_.assign(slot_count, Slot{});
  for (size_t i = 0; i < starts_.size(); ++i) Insert(hashes_[i], i + 1);
}

void StackTable::Prepare(const std::vector<uint64_t>& location_ids, Key* key) const {
  // Encoded into room for the longest varints (byte by byte, push_back cost a quarter of a
  // large merge's interning).
  char* const begin = key->Room(location_ids.size() * kMaxVarintBytes);
  char* at = begin;
  for (uint64_t value : location_ids) at = WriteVarint(at, value);
  key->set_size(static_cast<size_t>(at - begin));
  // Hashed as PrepareBytes hashes any key (the bytes tell the ids apart, and HashBytes takes
  // their length), so that one table never holds one key under two hashes.
  PrepareBytes(key);
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
  if ((starts_.size() + 1) * 2 > slots_.size()) {
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
  if (starts_.size() >= UINT32_MAX) {
    throw ProfError("", "more than 4 billion distinct frames, stacks or label sets");
  }
  const std::string_view bytes = key.bytes();
  char length[kMaxVarintBytes];
  const size_t length_size = static_cast<size_t>(WriteVarint(length, bytes.size()) - length);
  char* const at = Allocate(length_size + bytes.size());
  std::memcpy(at, length, length_size);
  if (!bytes.empty()) std::memcpy(at + length_size, bytes.data(), bytes.size());
  starts_.push_back(at);
  hashes_.push_back(hash);
  const uint64_t id = starts_.size();
  Insert(hash, id);
  *is_new = true;
  return id;
}

void StackTable::TruncateTo(size_t count) {
  if (count >= starts_.size()) return;
  // The blocks after the one the first forgotten key is in go; that one ends where it began.
  const auto cut = reinterpret_cast<uintptr_t>(starts_[count]);
  while (!blocks_.empty()) {
    Block& block = blocks_.back();
    const auto begin = reinterpret_cast<uintptr_t>(block.data.get());
    if (cut >= begin && cut < begin + block.size) {
      block.used = static_cast<size_t>(cut - begin);
      break;
    }
    blocks_.pop_back();
  }
  starts_.resize(count);
  hashes_.resize(count);
  Rebuild(slots_.size());
}

}  // namespace proftools
