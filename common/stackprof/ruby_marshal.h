// Ruby's Marshal format, version 4.8 (marshal.c; what Marshal.dump writes, stackprof's `.dump`
// files among them), read into a tree of values. Every type code reads: nil, true, false,
// integers (fixnums and bignums), floats, symbols and their links, strings, arrays, hashes (with
// a default too), objects, structs, user classes, extended objects, `_dump` and `marshal_dump`
// data, regexps, classes and modules, and links to earlier objects; instance variables
// (a string's encoding among them) are read and dropped. Only what stackprof's results hold is
// kept as values: nil, booleans, integers, floats, symbols, strings, arrays and hashes; any
// other object reads as kOther.
//
// The input is untrusted: a size is checked against the bytes left before anything is
// allocated (every element takes at least one byte), nesting is at most kMaxDepth, and a link
// names an object already begun. The tree is one vector of nodes (a container's elements are a
// range of it), so memory grows with the input.
#ifndef PROFTOOLS_COMMON_STACKPROF_RUBY_MARSHAL_H_
#define PROFTOOLS_COMMON_STACKPROF_RUBY_MARSHAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

// 32 bytes: a file of small integers makes about ten times its size of them.
struct RubyValue {
  enum class Kind : uint8_t {
    kNil,
    kBool,
    kInteger,
    kFloat,
    kSymbol,
    kString,
    kArray,
    kHash,
    kOther
  };
  Kind kind = Kind::kNil;
  bool big = false;    // a kInteger past 64 bits: `integer` is not its value
  uint32_t count = 0;  // kArray: its elements; kHash: twice its entries; kSymbol, kString: bytes
  uint64_t first = 0;  // kArray, kHash: the first element's node; kSymbol, kString: the offset
  union {
    int64_t integer = 0;  // kBool (0 or 1), kInteger
    double real;          // kFloat
  };
  uint64_t byte = 0;  // where it starts in the input, counted from 0
};

class RubyMarshal {
 public:
  static constexpr int kMaxDepth = 64;

  // Reads one object from `bytes` (the 2-byte version first). Throws ProfError(name, "byte N:
  // what") for bytes that are not Marshal 4.8, or for bytes after the object.
  RubyMarshal(std::string_view bytes, const std::string& name);

  const RubyValue& root() const { return nodes_[0]; }
  // A symbol's or a string's bytes.
  std::string_view Text(const RubyValue& value) const {
    return bytes_.substr(value.first, value.count);
  }
  // The i-th element of an array, or the i-th key (2i) and value (2i + 1) of a hash.
  const RubyValue& element(const RubyValue& container, uint32_t i) const {
    return nodes_[container.first + i];
  }
  // "a hash", "an integer": for messages.
  static const char* KindName(RubyValue::Kind kind);

 private:
  struct Reader;
  std::string_view bytes_;
  std::vector<RubyValue> nodes_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_STACKPROF_RUBY_MARSHAL_H_
