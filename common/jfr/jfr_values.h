// Values decoded by the metadata's types, and a chunk's constant pools. Generic: a value is
// read field by field as its type says (integers, floats, strings, keys into a pool, nested
// structs, arrays), whatever the type is, so that pools and events of any JDK or of
// async-profiler read alike; the converter then picks fields by name.
#ifndef PROFTOOLS_COMMON_JFR_JFR_VALUES_H_
#define PROFTOOLS_COMMON_JFR_JFR_VALUES_H_

#include <cstdint>
#include <string>
#include <unordered_map>
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

  // A value of `field`'s shape (pooled or not, array or not).
  void ReadField(JfrInput* in, const JfrField& field, JfrValue* out);
  // A whole value of type `type` (not pooled, not an array).
  void ReadValue(JfrInput* in, size_t type, JfrValue* out);

 private:
  void Field(JfrInput* in, const JfrField& field, JfrValue* out, int depth);
  void Value(JfrInput* in, size_t type, JfrValue* out, int depth);
  void Step(const JfrInput& in);

  const JfrMetadata& metadata_;
  uint64_t budget_ = 0;
};

// A chunk's constant pools: every (type, key) and its value, from the chain of constant-pool
// events that starts at the chunk header's offset and goes back by each event's delta.
class JfrPools {
 public:
  JfrPools() = default;  // no pools: every reference is to a missing entry
  JfrPools(std::string_view file, const std::string* name, const JfrChunk& chunk,
           const JfrMetadata& metadata);

  // The value of `key` in the pool of `type`, or null when there is none.
  const JfrValue* Find(size_t type, uint64_t key) const;
  size_t size() const { return values_.size(); }

 private:
  struct KeyHash {
    size_t operator()(const std::pair<size_t, uint64_t>& k) const {
      return std::hash<uint64_t>()(k.second * 0x9e3779b97f4a7c15ULL ^ k.first);
    }
  };
  std::unordered_map<std::pair<size_t, uint64_t>, JfrValue, KeyHash> values_;
};

// The text of a value, through pool references (at most a few deep), for labels and names: a
// string; a struct's `name`, `string` or `description` field, or its only field; "" otherwise.
std::string JfrText(const JfrValue& value, const JfrMetadata& metadata, const JfrPools& pools);

// The value behind a pool reference (or the value itself when it is not one); null when the key
// is not in the pool.
const JfrValue* JfrDeref(const JfrValue& value, const JfrPools& pools);

// A struct's field named `name`, or null.
const JfrValue* JfrFieldOf(const JfrValue& value, const JfrMetadata& metadata, const char* name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_VALUES_H_
