// A chunk's metadata event: the tree of elements (root → metadata → class → field, setting,
// annotation; root → region) that defines every type of the chunk, event types and the types of
// their fields alike. Read, never assumed: the JDK's types change between releases and
// async-profiler defines its own, so the reader finds fields by name in what this says.
#ifndef PROFTOOLS_COMMON_JFR_JFR_METADATA_H_
#define PROFTOOLS_COMMON_JFR_JFR_METADATA_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/jfr/jfr_chunk.h"

namespace proftools {

// How a value of a type is encoded.
enum class JfrKind : uint8_t {
  kStruct,  // its fields one after the other
  kBoolean,
  kByte,
  kChar,  // LEB128
  kShort,
  kInt,
  kLong,
  kFloat,  // 4 bytes, big-endian
  kDouble,
  kString,
};

struct JfrField {
  std::string name;
  uint64_t type_id = 0;
  size_t type = 0;      // index in JfrMetadata::types
  bool pooled = false;  // a LEB128 key into the constant pool of its type
  bool array = false;   // a LEB128 count, then that many values
};

struct JfrType {
  uint64_t id = 0;
  std::string name;
  std::string super_type;
  JfrKind kind = JfrKind::kStruct;
  std::vector<JfrField> fields;
  // Whether a value can take no bytes at all (a struct of no fields, or of such structs only):
  // an array of them is refused, so that every element read costs a byte of input.
  bool can_be_empty = false;
  // A struct whose fields are all single numbers or pool keys (no strings, arrays or structs):
  // skipped field by field without following each field's type.
  bool flat = false;
  // Its first field named name, string or description (JfrText's), or -1.
  int text_field = -1;
  bool is_event() const { return super_type == "jdk.jfr.Event"; }
  // The index of the field named `name`, or -1.
  int FieldIndex(std::string_view name) const;
};

struct JfrMetadata {
  uint64_t id =
      0;  // the metadata's id: a chunk whose metadata has its predecessor's id has its types
  std::vector<JfrType> types;
  std::unordered_map<uint64_t, size_t> by_id;
  // The type of id `id`, or null.
  const JfrType* Find(uint64_t id) const;
};

// Reads the metadata event of `chunk` from `file`; when `previous` (the previous chunk's, or
// null) has the id this event states, returns it without reading the tree again, as the JDK's
// reader does (the JVM changes the id when it defines new types).
std::shared_ptr<const JfrMetadata> ReadJfrMetadata(const JfrBytes& file, const std::string& name,
                                                   const JfrChunk& chunk,
                                                   std::shared_ptr<const JfrMetadata> previous);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_METADATA_H_
