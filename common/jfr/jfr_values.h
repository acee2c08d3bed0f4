// Values decoded by the metadata's types, and a chunk's constant pools. Generic: a value is
// read field by field as its type says (integers, floats, strings, keys into a pool, nested
// structs, arrays), whatever the type is, so that pools and events of any JDK or of
// async-profiler read alike; the converter then picks fields by name.
#ifndef PROFTOOLS_COMMON_JFR_JFR_VALUES_H_
#define PROFTOOLS_COMMON_JFR_JFR_VALUES_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/jfr/jfr_chunk.h"
#include "common/jfr/jfr_input.h"
#include "common/jfr/jfr_metadata.h"

namespace proftools {

struct JfrValue {
  enum Tag : uint8_t { kNull, kInt, kFloat, kString, kRef, kStruct, kArray };
  Tag tag = kNull;
  int64_t i = 0;                // kInt (booleans, chars and bytes too); kRef: the key
  double d = 0;                 // kFloat
  size_t type = 0;              // kRef: the pool's type; kStruct: its type
  std::string s;                // kString
  std::vector<JfrValue> items;  // kStruct: its fields in order; kArray: its elements
};

// Reads values of the metadata's types from an input. Structs nest inside structs only as deep
// as kMaxNesting (a type that contains itself is refused, not followed), and a value costs at
// most a budget of steps proportional to its bytes (arrays of empty structs cannot spin).
class JfrDecoder {
 public:
  static constexpr int kMaxNesting = 32;
  static constexpr uint64_t kMaxArray = 1 << 20;

  explicit JfrDecoder(const JfrMetadata* metadata) : metadata_(*metadata) {}

  // A whole value of type `type` (not pooled, not an array). `out` may hold an earlier value:
  // its vectors and strings are reused, so that reading into the same value allocates little.
  void ReadValue(JfrInput* in, size_t type, JfrValue* out);
  // Steps over a value of type `type` as ReadValue reads it (the same checks, the same errors)
  // without making anything of it.
  void SkipValue(JfrInput* in, size_t type);
  // SkipValue of a struct type, but the key of its field `field` (pooled, not an array) is
  // returned.
  uint64_t SkipValueButKey(JfrInput* in, size_t type, size_t field);

 private:
  void Field(JfrInput* in, const JfrField& field, JfrValue* out, int depth);
  void Value(JfrInput* in, size_t type, JfrValue* out, int depth);
  void SkipField(JfrInput* in, const JfrField& field, int depth);
  void Skip(JfrInput* in, size_t type, int depth);
  static void SkipNumber(JfrInput* in, JfrKind kind);  // a field of a flat type
  uint64_t ArrayLength(JfrInput* in, const JfrField& field) const;
  void CheckNesting(const JfrInput& in, const JfrType& type, int depth) const;
  void Step(const JfrInput& in);

  const JfrMetadata& metadata_;
  uint64_t budget_ = 0;
  JfrString string_;  // its buffer trades places with the strings read
};

// A chunk's constant pools: every (type, key) and its value, from the chain of constant-pool
// events that starts at the chunk header's offset and goes back by each event's delta. Every
// entry is checked as the pools are read, but kept as where its bytes are: it is decoded when
// first looked up (most of a chunk's pools describe what no sample refers to), then kept.
class JfrPools {
 public:
  JfrPools() = default;  // no pools: every reference is to a missing entry
  // `file` holds the chunk's bytes as long as the pools are used.
  JfrPools(const JfrBytes& file, const std::string* name, const JfrChunk& chunk,
           const JfrMetadata& metadata);
  JfrPools(const JfrPools&) = delete;
  JfrPools& operator=(const JfrPools&) = delete;

  // The value of `key` in the pool of `type`, or null when there is none. Valid as long as
  // the pools are.
  const JfrValue* Find(size_t type, uint64_t key) const;
  size_t size() const { return entries_.size(); }

 private:
  static constexpr size_t kNotRead = ~size_t{0};
  struct Entry {
    size_t type = 0;
    uint64_t key = 0;
    uint64_t at = 0, end = 0;         // the value's first byte, and the end of its pool event
    mutable size_t value = kNotRead;  // in values_, once read
  };
  // The entry of (type, key) in entries_, or none: open addressing over a power of two.
  size_t Slot(size_t type, uint64_t key) const;
  void Add(const Entry& entry, const JfrInput& in);
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  JfrBytes file_;
  const std::string* name_ = nullptr;
  const JfrMetadata* metadata_ = nullptr;
  std::vector<Entry> entries_;   // one for each (type, key): a later one replaces an earlier
  std::vector<uint32_t> table_;  // indexes into entries_, or kEmpty
  mutable std::deque<JfrValue> values_;  // a deque: what Find returned stays where it is
};

// The text of a value, through pool references (at most a few deep), for labels and names: a
// string; a struct's `name`, `string` or `description` field, or its only field; "" otherwise.
std::string JfrText(const JfrValue& value, const JfrMetadata& metadata, const JfrPools& pools);

// The value behind a pool reference (or the value itself when it is not one); null when the key
// is not in the pool.
const JfrValue* JfrDeref(const JfrValue& value, const JfrPools& pools);

// A struct's field named `name`, or null.
const JfrValue* JfrFieldOf(const JfrValue& value, const JfrMetadata& metadata,
                           std::string_view name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_VALUES_H_
