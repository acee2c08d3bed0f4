// Stacks interned by content, compactly: the Interner's stack table, behind every converter and
// prof-merge. A merge of profiles whose every sample has its own stack (pprof's random benchmark
// profile: a million stacks of 20-60 frames) holds millions of them. Each stack's location ids
// are varint-encoded in blocks of up to 1 MiB (about 2 bytes an id instead of 8, and no allocation
// per stack); lookup is open addressing over (tag, id) slots. The Interner keeps its locations
// (each as the integers of its content) and its functions (each string with its length) in
// tables of this kind too.
#ifndef PROFTOOLS_COMMON_MODEL_STACK_TABLE_H_
#define PROFTOOLS_COMMON_MODEL_STACK_TABLE_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

class StackTable {
 public:
  // The id (1, 2, 3, ... in order of first appearance) of the stack with these location ids;
  // *is_new tells whether it was seen for the first time.
  uint64_t Intern(const std::vector<uint64_t>& location_ids, bool* is_new);

  // The same in two steps, for a caller with several keys at hand: Prepare encodes and hashes
  // the key and starts fetching its slot (a cache miss in a large table: most of a lookup's
  // time), InternPrepared(key) looks it up, a few keys later, when the slot has arrived.
  class Key {
   public:
    std::string_view bytes() const { return std::string_view(data_.get(), size_); }
    uint64_t hash = 0;

    // Room for `n` bytes at the start (the old ones are dropped), to write the key into and
    // then set_size. Unlike std::string's resize, it does not zero the room first: for short
    // stacks that cost as much as encoding them.
    char* Room(size_t n) {
      if (n > capacity_ || data_ == nullptr) Reserve(n, false);
      return data_.get();
    }
    void set_size(size_t n) { size_ = n; }
    void clear() { size_ = 0; }
    void Append(std::string_view bytes) {
      if (size_ + bytes.size() > capacity_) Reserve(size_ + bytes.size(), true);
      if (!bytes.empty()) std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
      size_ += bytes.size();
    }

   private:
    void Reserve(size_t n, bool keep);
    std::unique_ptr<char[]> data_;
    size_t size_ = 0, capacity_ = 0;
  };
  void Prepare(const std::vector<uint64_t>& location_ids, Key* key) const;
  // Prepare for a key of another kind, whose bytes the caller wrote into *key (in an
  // encoding that tells different contents apart): hashes them and starts fetching the slot.
  void PrepareBytes(Key* key) const;
  uint64_t InternPrepared(const Key& key, bool* is_new);

  size_t size() const { return starts_.size(); }
  // The location ids of stack `id` (1 .. size()), varint-encoded one after the other.
  std::string_view Encoded(uint64_t id) const;
  // Forgets the stacks after the first `count` (a skipped input's).
  void TruncateTo(size_t count);

 private:
  // 8 bytes, so that the slots of a merge of millions of stacks (a power of two, at most half
  // full) take 32 MB less than with the whole hash and a 64-bit id.
  struct Slot {
    uint32_t tag = 0;  // the upper half of the key's hash (the lower half chose the slot)
    uint32_t id = 0;   // 0: empty
  };
  void Insert(uint64_t hash, uint64_t id);
  void Fetch(uint64_t hash) const;  // starts fetching the slot of `hash`
  void Rebuild(size_t slot_count);

  // Room for `n` bytes at the end of the last block, or in a new one.
  char* Allocate(size_t n);

  // The keys, each after its length (a varint), in blocks that are never moved: one growing
  // string copied itself as it doubled, and for that moment was there twice (128 MB more at
  // the peak of a merge of two million stacks).
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size = 0, used = 0;
  };
  std::vector<Block> blocks_;
  std::vector<const char*> starts_;  // where key id i + 1's length starts
  std::vector<uint64_t> hashes_;     // of key id i + 1, to rebuild the slots
  std::vector<Slot> slots_;          // a power of two, at most half full
  Key scratch_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_STACK_TABLE_H_
