#include "common/pstats/marshal.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

constexpr unsigned char kFlagRef = 0x80;
// None, False and True are one node each: a byte of input must not cost a node.
constexpr uint32_t kNoneNode = 0, kFalseNode = 1, kTrueNode = 2;
constexpr uint32_t kBeingRead = std::numeric_limits<uint32_t>::max();

}  // namespace

struct PythonMarshal::Reader {
  // `transient` and `transient_items`, when given, take the objects read outside any object
  // marked for reference (an entry's own: kDictEntries).
  Reader(std::string_view bytes, const std::string& name, std::vector<MarshalValue>* nodes,
         std::vector<uint32_t>* items, std::vector<MarshalValue>* transient = nullptr,
         std::vector<uint32_t>* transient_items = nullptr)
      : bytes_(bytes),
        name_(name),
        nodes_(*nodes),
        items_(*items),
        transient_(transient),
        transient_items_(transient_items) {}

  uint32_t Object(int depth);
  size_t position() const { return at_; }
  // The type code of the next object, without its FLAG_REF; 0 at the end.
  uint8_t NextCode() const {
    return at_ < bytes_.size() ? static_cast<uint8_t>(bytes_[at_]) & ~kFlagRef : 0;
  }
  // The streamed dict's first byte, read; its number taken when it is marked for reference.
  void BeginStreamedDict() {
    const uint8_t byte = Byte(0, "an object");
    Reserve((byte & kFlagRef) != 0);
  }
  void Skip() { ++at_; }

 private:
  [[noreturn]] void Fail(size_t at, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(at) + ": " + what);
  }
  // Inline, its message apart: called for every object (millions in a pstats file), it was
  // a call of its own each, a twentieth of reading one.
  void Need(size_t n, size_t object_at, const char* what) const {
    if (__builtin_expect(bytes_.size() - at_ < n, 0)) RanPastTheEnd(n, object_at, what);
  }
  [[noreturn]] __attribute__((noinline, cold)) void RanPastTheEnd(size_t n, size_t object_at,
                                                                  const char* what) const {
    Fail(object_at, std::string(what) + " runs past the end of the input (" + std::to_string(n) +
                        " bytes needed, " + std::to_string(bytes_.size() - at_) + " left)");
  }
  uint8_t Byte(size_t object_at, const char* what) {
    Need(1, object_at, what);
    return static_cast<uint8_t>(bytes_[at_++]);
  }
  // A fixed-size field, little-endian as marshal writes it (and as the machines that run this
  // are: x86-64, as the perf.data reader requires too).
  template <typename T>
  T Fixed(size_t object_at, const char* what) {
    Need(sizeof(T), object_at, what);
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  int32_t Int32(size_t object_at, const char* what) { return Fixed<int32_t>(object_at, what); }
  // A count of things each taking at least `each` bytes: never more than the bytes left allow.
  size_t Count(int64_t n, size_t each, size_t object_at, const char* what) const {
    if (n < 0)
      Fail(object_at, std::string(what) + " with a negative size (" + std::to_string(n) + ")");
    if (static_cast<uint64_t>(n) > (bytes_.size() - at_) / each) {
      Fail(object_at, std::string(what) + " of " + std::to_string(n) +
                          " runs past the end of the input (" +
                          std::to_string(bytes_.size() - at_) + " bytes left)");
    }
    return static_cast<size_t>(n);
  }
  // A new node: the entry's, unless it is (in) an object marked for reference.
  uint32_t Add(MarshalValue::Kind kind) {
    if (transient_ != nullptr && referenced_depth_ == 0) {
      if (transient_->size() >= kTransient) Fail(at_, "an entry of too many objects");
      transient_->emplace_back();
      transient_->back().kind = kind;
      transient_->back().transient = true;
      return static_cast<uint32_t>(transient_->size() - 1) | kTransient;
    }
    if (nodes_.size() >= kTransient) Fail(at_, "too many objects");
    nodes_.emplace_back();
    nodes_.back().kind = kind;
    return static_cast<uint32_t>(nodes_.size() - 1);
  }
  MarshalValue& At(uint32_t node) {
    return (node & kTransient) != 0 ? (*transient_)[node & ~kTransient] : nodes_[node];
  }
  // A container or code object with FLAG_REF is numbered before its contents, as Python numbers
  // it: its slot holds kBeingRead until it is complete.
  size_t Reserve(bool ref) {
    const size_t slot = refs_.size();
    if (ref) refs_.push_back(kBeingRead);
    return slot;
  }
  void Numbered(bool ref, size_t slot, uint32_t node) {
    if (ref) refs_[slot] = node;
  }
  uint32_t Long(size_t object_at);
  uint32_t Container(uint8_t code, bool ref, size_t object_at, int depth);
  uint32_t Code(bool ref, size_t object_at, int depth);

  std::string_view bytes_;
  const std::string name_;  // a copy: a streamed dict outlives the caller's string
  std::vector<MarshalValue>& nodes_;
  std::vector<uint32_t>& items_;
  std::vector<MarshalValue>* transient_;
  std::vector<uint32_t>* transient_items_;
  int referenced_depth_ = 0;  // objects marked for reference being read
  size_t at_ = 0;
  // FLAG_REF objects in the order Python numbers them.
  std::vector<uint32_t> refs_;
  // The items of the containers being read, innermost last; a container's move to items_
  // when it is complete, so that each container's items are one range there.
  std::vector<uint32_t> pending_;
};

uint32_t PythonMarshal::Reader::Long(size_t object_at) {
  const int32_t n = Int32(object_at, "a long");
  if (n == std::numeric_limits<int32_t>::min()) Fail(object_at, "a long of a size out of range");
  const size_t digits = Count(n < 0 ? -static_cast<int64_t>(n) : n, 2, object_at, "a long");
  bool big = false;
  unsigned __int128 magnitude = 0;
  for (size_t k = 0; k < digits; ++k) {
    const uint32_t d = static_cast<uint8_t>(bytes_[at_]) | static_cast<uint8_t>(bytes_[at_ + 1])
                                                               << 8;
    at_ += 2;
    if (d >= (1u << 15))
      Fail(object_at, "a long with a digit out of range (" + std::to_string(d) + ")");
    if (k * 15 < 127) magnitude |= static_cast<unsigned __int128>(d) << (k * 15);
    if (d != 0 && k * 15 + 15 > 64) big = true;
  }
  if (magnitude > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max())) big = true;
  const uint32_t node = Add(MarshalValue::Kind::kInt);
  MarshalValue& v = At(node);
  v.big = big;
  if (big) {
    v.i = n < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  } else {
    v.i = n < 0 ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  }
  return node;
}

uint32_t PythonMarshal::Reader::Container(uint8_t code, bool ref, size_t object_at, int depth) {
  using Kind = MarshalValue::Kind;
  const Kind kind = code == '{'                  ? Kind::kDict
                    : code == '(' || code == ')' ? Kind::kTuple
                    : code == '['                ? Kind::kList
                                                 : Kind::kSet;
  const uint32_t node = Add(kind);
  const size_t slot = Reserve(ref);
  const size_t mark = pending_.size();
  if (kind == Kind::kDict) {
    for (;;) {
      if (NextCode() == '0') {
        ++at_;
        break;
      }
      const uint32_t key = Object(depth + 1);
      pending_.push_back(key);
      const uint32_t value = Object(depth + 1);
      pending_.push_back(value);
    }
  } else {
    const char* what = kind == Kind::kTuple ? "a tuple" : kind == Kind::kList ? "a list" : "a set";
    const size_t n =
        code == ')' ? Byte(object_at, what) : Count(Int32(object_at, what), 1, object_at, what);
    Need(n, object_at, what);  // every item takes a byte at least
    for (size_t k = 0; k < n; ++k) {
      const uint32_t item = Object(depth + 1);
      pending_.push_back(item);
    }
  }
  const size_t n = pending_.size() - mark;
  if (n > std::numeric_limits<uint32_t>::max()) Fail(object_at, "a container of too many items");
  std::vector<uint32_t>& items = (node & kTransient) != 0 ? *transient_items_ : items_;
  At(node).first = items.size();
  At(node).count = static_cast<uint32_t>(n);
  items.insert(items.end(), pending_.begin() + mark, pending_.end());
  pending_.resize(mark);
  Numbered(ref, slot, node);
  return node;
}

uint32_t PythonMarshal::Reader::Code(bool ref, size_t object_at, int depth) {
  const uint32_t node = Add(MarshalValue::Kind::kCode);
  const size_t slot = Reserve(ref);
  // Python 3.11 to 3.13: five int32 (argcount, posonlyargcount, kwonlyargcount, stacksize,
  // flags), then the bytecode (bytes); 3.8 to 3.10: six (nlocals too).
  for (int k = 0; k < 5; ++k) Int32(object_at, "a code object");
  const bool wide = NextCode() != 's';
  if (wide) Int32(object_at, "a code object");
  // The objects before co_filename: code, consts, names, then localsplusnames and
  // localspluskinds (3.11+) or varnames, freevars and cellvars (3.8-3.10).
  const int before_file = wide ? 6 : 5;
  for (int k = 0; k < before_file; ++k) Object(depth + 1);
  const uint32_t file = Object(depth + 1);
  const uint32_t name = Object(depth + 1);
  if (!wide) Object(depth + 1);       // co_qualname
  Int32(object_at, "a code object");  // co_firstlineno
  Object(depth + 1);                  // line table
  if (!wide) Object(depth + 1);       // exception table
  if (At(file).kind != MarshalValue::Kind::kString ||
      At(name).kind != MarshalValue::Kind::kString) {
    Fail(object_at, "a code object whose file or name is not a string (a Python before 3.8?)");
  }
  At(node).first = At(name).first;
  At(node).count = At(name).count;
  Numbered(ref, slot, node);
  return node;
}

uint32_t PythonMarshal::Reader::Object(int depth) {
  const size_t object_at = at_;
  if (depth > kMaxDepth)
    Fail(object_at, "objects nested more than " + std::to_string(kMaxDepth) + " deep");
  const uint8_t byte = Byte(object_at, "an object");
  const uint8_t code = byte & ~kFlagRef;
  const bool ref = (byte & kFlagRef) != 0;
  // What an object marked for reference holds is kept with it (a later entry may name it).
  struct Referenced {
    int* depth;
    bool ref;
    Referenced(int* d, bool r) : depth(d), ref(r) { *depth += ref; }
    ~Referenced() { *depth -= ref; }
  } referenced(&referenced_depth_, ref);
  using Kind = MarshalValue::Kind;
  uint32_t node = 0;
  switch (code) {
    case '(':
    case ')':
    case '[':
    case '{':
    case '<':
    case '>':
      return Container(code, ref, object_at, depth);
    case 'r': {
      const int32_t index = Int32(object_at, "a reference");
      if (index < 0 || static_cast<size_t>(index) >= refs_.size()) {
        Fail(object_at, "a reference to object " + std::to_string(index) + " of " +
                            std::to_string(refs_.size()) + " read so far");
      }
      if (refs_[index] == kBeingRead) {
        Fail(object_at, "a reference to object " + std::to_string(index) +
                            ", which is still being read (a container in itself)");
      }
      return refs_[index];
    }
    case 'N':
      node = kNoneNode;
      break;
    case 'F':
      node = kFalseNode;
      break;
    case 'T':
      node = kTrueNode;
      break;
    case 'i':
      node = Add(Kind::kInt);
      At(node).i = Int32(object_at, "an int");
      break;
    case 'I':  // marshal version 0's 64-bit int
      node = Add(Kind::kInt);
      At(node).i = Fixed<int64_t>(object_at, "an int");
      break;
    case 'l':
      node = Long(object_at);
      break;
    case 'g':
      node = Add(Kind::kFloat);
      At(node).f = Fixed<double>(object_at, "a float");
      break;
    case 'f': {
      const size_t n = Byte(object_at, "a float");
      Need(n, object_at, "a float");
      const std::string text(bytes_.substr(at_, n));
      at_ += n;
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size())
        Fail(object_at, "a float that is not a number");
      node = Add(Kind::kFloat);
      At(node).f = value;
      break;
    }
    case 's':
    case 't':
    case 'u':
    case 'a':
    case 'A':
    case 'z':
    case 'Z': {
      const bool short_text = code == 'z' || code == 'Z';
      const size_t n = short_text ? Byte(object_at, "a string")
                                  : Count(Int32(object_at, "a string"), 1, object_at, "a string");
      Need(n, object_at, "a string");
      node = Add(Kind::kString);
      MarshalValue& text = At(node);
      text.is_bytes = code == 's';
      text.first = at_;
      text.count = static_cast<uint32_t>(n);  // under 2^31: an int32 size
      at_ += n;
      break;
    }
    case 'c':
      return Code(ref, object_at, depth);
    case 'S':
    case '.':
      node = Add(Kind::kOther);
      break;
    case 'y':  // two binary doubles
      Need(16, object_at, "a complex number");
      at_ += 16;
      node = Add(Kind::kOther);
      break;
    case 'x':  // two floats as text
      for (int part = 0; part < 2; ++part) {
        const size_t n = Byte(object_at, "a complex number");
        Need(n, object_at, "a complex number");
        at_ += n;
      }
      node = Add(Kind::kOther);
      break;
    case '0':
      Fail(object_at, "a NULL where an object belongs");
    default: {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", byte);
      Fail(object_at, std::string("an unknown type code ") + hex);
    }
  }
  if (ref) refs_.push_back(node);
  return node;
}

PythonMarshal::PythonMarshal(std::string_view bytes, const std::string& name, Mode mode)
    : bytes_(bytes) {
  nodes_.resize(3);
  nodes_[kFalseNode].kind = nodes_[kTrueNode].kind = MarshalValue::Kind::kBool;
  nodes_[kTrueNode].i = 1;
  if (mode == Mode::kDictEntries && !bytes.empty() &&
      (static_cast<uint8_t>(bytes[0]) & ~kFlagRef) == '{') {
    // The objects kept (the functions' keys, what they hold, numbers marked for reference):
    // some 26 bytes of input each in cProfile's files (a reserve that came short was copied
    // whole once more); room that is not used is address space, not memory.
    nodes_.reserve(std::min<size_t>(bytes.size() / 20, size_t{1} << 24) + 3);
    items_.reserve(std::min<size_t>(bytes.size() / 64, size_t{1} << 24));
    reader_ =
        std::make_unique<Reader>(bytes, name, &nodes_, &items_, &transient_, &transient_items_);
    reader_->BeginStreamedDict();
    streamed_ = true;
    return;
  }
  // A pstats file's objects take 5 to 9 bytes each (ints, floats, references): room for them
  // at once rather than by doubling (copies and page faults), bounded for a file of one string.
  const size_t expected = std::min<size_t>(bytes.size() / 6, size_t{1} << 24);
  nodes_.reserve(expected + 3);
  items_.reserve(expected);
  Reader reader(bytes, name, &nodes_, &items_);
  root_ = reader.Object(0);
  end_ = reader.position();
}

PythonMarshal::~PythonMarshal() = default;

bool PythonMarshal::NextEntry(const MarshalValue** key, const MarshalValue** value) {
  if (reader_ == nullptr) return false;
  transient_.clear();
  transient_items_.clear();
  if (reader_->NextCode() == '0') {  // the dict's end
    reader_->Skip();
    end_ = reader_->position();
    reader_.reset();
    return false;
  }
  const uint32_t key_node = reader_->Object(1);
  const uint32_t value_node = reader_->Object(1);
  *key = &node(key_node);
  *value = &node(value_node);
  return true;
}

const char* MarshalKindName(MarshalValue::Kind kind) {
  switch (kind) {
    case MarshalValue::Kind::kNone:
      return "None";
    case MarshalValue::Kind::kBool:
      return "a bool";
    case MarshalValue::Kind::kInt:
      return "an int";
    case MarshalValue::Kind::kFloat:
      return "a float";
    case MarshalValue::Kind::kString:
      return "a string";
    case MarshalValue::Kind::kTuple:
      return "a tuple";
    case MarshalValue::Kind::kList:
      return "a list";
    case MarshalValue::Kind::kDict:
      return "a dict";
    case MarshalValue::Kind::kSet:
      return "a set";
    case MarshalValue::Kind::kCode:
      return "a code object";
    case MarshalValue::Kind::kOther:
      return "a complex number, Ellipsis or StopIteration";
  }
  return "an object";
}

}  // namespace proftools
