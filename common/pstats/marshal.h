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
// one byte of input, so memory grows with the input. The objects are vectors of nodes (no
// object of its own each: a 20 MB cProfile file holds millions), a container's items a range of
// a vector of node numbers, strings views of the input; an object referenced again is the same
// node, not a copy.
//
// A dict can be read an entry at a time (kDictEntries, what pstats files are: a dict of a
// hundred thousand functions): an entry's objects last until the next entry is read, but for
// those the data marks for reference (FLAG_REF, which later entries may name again) and what
// they hold. Memory then grows with the objects referenced, a fifth of a pstats file's.
#ifndef PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
#define PROFTOOLS_COMMON_PSTATS_MARSHAL_H_

#include <cstdint>
#include <memory>
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
  bool is_bytes = false;   // a kString read from bytes ('s'), not text
  bool big = false;        // a kInt beyond 64 bits: `i` is not its value
  bool transient = false;  // an entry's (kDictEntries): its items are among the entry's
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

  enum class Mode {
    kWhole,        // the object read whole: root()
    kDictEntries,  // a dict's entries read one at a time by NextEntry (another object: whole)
  };
  // Reads the object at the start of `bytes` (which must outlive this), whole or, when it is a
  // dict and `mode` says so, up to its first entry. Errors throw ProfError(name, "byte N:
  // what"), then or in NextEntry.
  PythonMarshal(std::string_view bytes, const std::string& name, Mode mode = Mode::kWhole);
  ~PythonMarshal();
  PythonMarshal(const PythonMarshal&) = delete;
  PythonMarshal& operator=(const PythonMarshal&) = delete;

  // kDictEntries: whether the object is a dict, read by NextEntry (else root() is the object).
  bool streamed() const { return streamed_; }
  // The next entry of the dict being streamed: false after the last (end() is then known).
  // The entry's objects stay valid until the next call.
  bool NextEntry(const MarshalValue** key, const MarshalValue** value);

  // The object read whole (not when streamed()).
  const MarshalValue& root() const { return nodes_[root_]; }
  size_t input_size() const { return bytes_.size(); }
  // The offset after the object read (when streamed(), known once NextEntry has said false).
  size_t end() const { return end_; }
  // A string's text, or a code object's name.
  std::string_view Text(const MarshalValue& value) const {
    return bytes_.substr(value.first, value.count);
  }
  // The i-th item of a tuple, list or set; of a dict, the i-th key (2i) and value (2i + 1).
  const MarshalValue& item(const MarshalValue& container, uint32_t i) const {
    return node((container.transient ? transient_items_ : items_)[container.first + i]);
  }
  // A word for the reader's own use in each tuple, list, set and dict (their `i`, which the
  // data leaves 0): the pstats reader keeps there the function a key stands for, in the node it
  // reads anyway (a vector by object number beside the nodes missed the cache at every caller).
  // An entry's own objects lose it with the entry; the objects referenced keep it.
  int64_t& scratch(const MarshalValue& container) {
    return const_cast<MarshalValue&>(container).i;  // a node of this object's own
  }
  // The number of objects kept (those of the entry at hand aside).
  size_t size() const { return nodes_.size(); }

 private:
  struct Reader;
  // Node numbers with this bit are the entry's (transient_), others nodes_'.
  static constexpr uint32_t kTransient = uint32_t{1} << 31;
  const MarshalValue& node(uint32_t number) const {
    return (number & kTransient) != 0 ? transient_[number & ~kTransient] : nodes_[number];
  }

  std::string_view bytes_;
  std::vector<MarshalValue> nodes_, transient_;
  std::vector<uint32_t> items_, transient_items_;
  std::unique_ptr<Reader> reader_;  // while a dict is streamed
  bool streamed_ = false;
  uint32_t root_ = 0;
  size_t end_ = 0;
};

// The type code's name, for messages ("a dict", "a tuple").
const char* MarshalKindName(MarshalValue::Kind kind);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PSTATS_MARSHAL_H_
