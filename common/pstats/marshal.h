// Python's marshal format (Python/marshal.c), the subset that data written by marshal.dump uses:
// None, booleans, ints (32-bit and long), floats (binary and text), strings (bytes, ASCII,
// UTF-8, interned, short), tuples, lists, dicts, sets, and references to earlier objects
// (FLAG_REF, 'r'), and code objects (Python 3.8 to 3.13's layouts: the profile module keys its
// entry by one), of which the name is kept. Complex numbers, Ellipsis and StopIteration read as
// kOther (code objects' constants). Every marshal version Python 3 writes (2 to 4) reads.
//
// The input is untrusted: a reference is to an object already complete (a reference to one still
// being read, a forward or self reference, is an error); nesting is at most kMaxDepth; sizes are
// checked against the bytes left before anything is allocated, and every object takes at least
// one byte of input, so memory grows with the input. The objects are one vector of nodes (no
// object of its own each: a 20 MB cProfile file holds millions), a container's items a range of
// a vector of node numbers, strings views of the input; an object referenced again is the same
// node, not a copy.
#ifndef PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
#define PROFTOOLS_COMMON_PSTATS_MARSHAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

struct MarshalValue {  // 24 bytes
  enum class Kind : uint8_t {
    kNone,
    kBool,
    kInt,
    kFloat,
    kString,
    kTuple,
    kList,
    kDict,
    kSet,
    kCode,
    kOther
  };
  Kind kind = Kind::kNone;
  bool is_bytes = false;  // a kString read from bytes ('s'), not text
  bool big = false;       // a kInt beyond 64 bits: `i` is not its value
  // kString, kCode (its name): the text's bytes; kTuple, kList, kSet: items; kDict: 2 × entries.
  uint32_t count = 0;
  // kString, kCode: the text's offset in the input; containers: the first item's place.
  uint64_t first = 0;
  union {
    int64_t i = 0;  // kBool, kInt
    double f;       // kFloat
  };

  bool IsNumber() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  double AsDouble() const { return kind == Kind::kFloat ? f : static_cast<double>(i); }
};

class PythonMarshal {
 public:
  static constexpr int kMaxDepth = 200;  // pstats nests four deep; Python's own limit is 2000

  // Reads one object from the start of `bytes` (which must outlive this). Errors throw
  // ProfError(name, "byte N: what").
  PythonMarshal(std::string_view bytes, const std::string& name);

  const MarshalValue& root() const { return nodes_[root_]; }
  // The offset after the object read.
  size_t end() const { return end_; }
  // A string's text, or a code object's name.
  std::string_view Text(const MarshalValue& value) const {
    return bytes_.substr(value.first, value.count);
  }
  // The i-th item of a tuple, list or set; of a dict, the i-th key (2i) and value (2i + 1).
  const MarshalValue& item(const MarshalValue& container, uint32_t i) const {
    return nodes_[items_[container.first + i]];
  }
  // The object's number: one object referenced twice has one number (up to size()).
  uint32_t NumberOf(const MarshalValue& value) const {
    return static_cast<uint32_t>(&value - nodes_.data());
  }
  size_t size() const { return nodes_.size(); }

 private:
  struct Reader;
  std::string_view bytes_;
  std::vector<MarshalValue> nodes_;
  std::vector<uint32_t> items_;
  uint32_t root_ = 0;
  size_t end_ = 0;
};

// The type code's name, for messages ("a dict", "a tuple").
const char* MarshalKindName(MarshalValue::Kind kind);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
