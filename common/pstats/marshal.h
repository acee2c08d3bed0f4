// Python's marshal format (Python/marshal.c), the subset that data written by marshal.dump uses:
// None, booleans, ints (32-bit and long), floats (binary and text), strings (bytes, ASCII,
// UTF-8, interned, short), tuples, lists, dicts, sets, and references to earlier objects
// (FLAG_REF, 'r'), and code objects (Python 3.8 to 3.13's layouts: the profile module keys its
// entry by one), of which the name is kept. Complex numbers, Ellipsis
// and StopIteration read as kOther (code objects' constants). Every marshal version Python 3
// writes (2 to 4) reads.
//
// The input is untrusted: a reference is to an object already complete (a reference to one still
// being read, a forward or self reference, is an error); nesting is at most kMaxDepth; sizes are
// checked against the bytes left before anything is allocated, and every object takes at least
// one byte of input, so memory grows with the input. Objects are shared, not copied, when
// referenced again.
#ifndef PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
#define PROFTOOLS_COMMON_PSTATS_MARSHAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proftools {

struct MarshalValue {
  enum class Kind {
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
  int64_t i = 0;          // kBool, kInt
  double f = 0;           // kFloat
  std::string s;          // kString; kCode: the name
  std::vector<std::shared_ptr<const MarshalValue>> items;  // kTuple, kList, kSet
  std::vector<std::pair<std::shared_ptr<const MarshalValue>, std::shared_ptr<const MarshalValue>>>
      dict;  // kDict, in file order

  bool IsNumber() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  double AsDouble() const { return kind == Kind::kFloat ? f : static_cast<double>(i); }
};

// Reads one object from the start of `bytes`; `*end` (when not null) gets the offset after it.
// Errors throw ProfError(name, "byte N: what").
std::shared_ptr<const MarshalValue> ReadMarshal(std::string_view bytes, const std::string& name,
                                                size_t* end = nullptr);

// The type code's name, for messages ("a dict", "a tuple").
const char* MarshalKindName(MarshalValue::Kind kind);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
