#include "common/pstats/marshal.h"

#include <cstring>
#include <limits>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

constexpr int kMaxDepth = 200;  // pstats nests four deep; Python's own limit is 2000
constexpr unsigned char kFlagRef = 0x80;

class MarshalReader {
 public:
  MarshalReader(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  std::shared_ptr<const MarshalValue> Object(int depth);
  size_t position() const { return at_; }

 private:
  [[noreturn]] void Fail(size_t at, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(at) + ": " + what);
  }
  void Need(size_t n, size_t object_at, const char* what) const {
    if (bytes_.size() - at_ < n) {
      Fail(object_at, std::string(what) + " runs past the end of the input (" + std::to_string(n) +
                          " bytes needed, " + std::to_string(bytes_.size() - at_) + " left)");
    }
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
  // The type code of the next object, without its FLAG_REF; 0 at the end.
  uint8_t NextCode() const {
    return at_ < bytes_.size() ? static_cast<uint8_t>(bytes_[at_]) & ~kFlagRef : 0;
  }
  // A container or code object with FLAG_REF is numbered before its contents, as Python numbers
  // it: its slot, filled by Numbered once it is complete (null until then).
  size_t Reserve(bool ref) {
    const size_t slot = refs_.size();
    if (ref) refs_.push_back(nullptr);
    return slot;
  }
  void Numbered(bool ref, size_t slot, std::shared_ptr<const MarshalValue> value) {
    if (ref) refs_[slot] = std::move(value);
  }
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
  std::string Text(size_t n) {
    std::string s(bytes_.substr(at_, n));
    at_ += n;
    return s;
  }
  std::shared_ptr<MarshalValue> Long(size_t object_at);
  std::shared_ptr<const MarshalValue> Container(uint8_t code, bool ref, size_t object_at,
                                                int depth);
  std::shared_ptr<const MarshalValue> Code(bool ref, size_t object_at, int depth);

  std::string_view bytes_;
  const std::string& name_;
  size_t at_ = 0;
  // FLAG_REF objects in the order Python numbers them; null while a container is being read.
  std::vector<std::shared_ptr<const MarshalValue>> refs_;
};

std::shared_ptr<const MarshalValue> Bool(bool value) {
  auto v = std::make_shared<MarshalValue>();
  v->kind = MarshalValue::Kind::kBool;
  v->i = value;
  return v;
}

std::shared_ptr<MarshalValue> MarshalReader::Long(size_t object_at) {
  const int32_t n = Int32(object_at, "a long");
  if (n == std::numeric_limits<int32_t>::min()) Fail(object_at, "a long of a size out of range");
  const size_t digits = Count(n < 0 ? -static_cast<int64_t>(n) : n, 2, object_at, "a long");
  auto v = std::make_shared<MarshalValue>();
  v->kind = MarshalValue::Kind::kInt;
  unsigned __int128 magnitude = 0;
  for (size_t k = 0; k < digits; ++k) {
    const uint32_t d = static_cast<uint8_t>(bytes_[at_]) | static_cast<uint8_t>(bytes_[at_ + 1])
                                                               << 8;
    at_ += 2;
    if (d >= (1u << 15))
      Fail(object_at, "a long with a digit out of range (" + std::to_string(d) + ")");
    if (k * 15 < 127) magnitude |= static_cast<unsigned __int128>(d) << (k * 15);
    if (d != 0 && k * 15 + 15 > 64) v->big = true;
  }
  if (magnitude > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()))
    v->big = true;
  if (v->big) {
    v->i = n < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  } else {
    v->i = n < 0 ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  }
  return v;
}

std::shared_ptr<const MarshalValue> MarshalReader::Container(uint8_t code, bool ref,
                                                             size_t object_at, int depth) {
  auto v = std::make_shared<MarshalValue>();
  const size_t slot = Reserve(ref);
  using Kind = MarshalValue::Kind;
  if (code == '{') {
    v->kind = Kind::kDict;
    for (;;) {
      if (NextCode() == '0') {
        ++at_;
        break;
      }
      auto key = Object(depth + 1);
      auto value = Object(depth + 1);
      v->dict.emplace_back(std::move(key), std::move(value));
    }
  } else {
    size_t n = 0;
    const char* what = code == '(' || code == ')' ? "a tuple" : code == '[' ? "a list" : "a set";
    if (code == ')') {
      n = Byte(object_at, what);
    } else {
      n = Count(Int32(object_at, what), 1, object_at, what);
    }
    Need(n, object_at, what);  // every item takes a byte at least
    v->kind = code == '(' || code == ')' ? Kind::kTuple : code == '[' ? Kind::kList : Kind::kSet;
    v->items.reserve(n);
    for (size_t k = 0; k < n; ++k) v->items.push_back(Object(depth + 1));
  }
  Numbered(ref, slot, v);
  return v;
}

std::shared_ptr<const MarshalValue> MarshalReader::Code(bool ref, size_t object_at, int depth) {
  auto v = std::make_shared<MarshalValue>();
  v->kind = MarshalValue::Kind::kCode;
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
  const auto file = Object(depth + 1);
  const auto name = Object(depth + 1);
  if (!wide) Object(depth + 1);       // co_qualname
  Int32(object_at, "a code object");  // co_firstlineno
  Object(depth + 1);                  // line table
  if (!wide) Object(depth + 1);       // exception table
  if (file->kind != MarshalValue::Kind::kString || name->kind != MarshalValue::Kind::kString) {
    Fail(object_at, "a code object whose file or name is not a string (a Python before 3.8?)");
  }
  v->s = name->s;
  Numbered(ref, slot, v);
  return v;
}

std::shared_ptr<const MarshalValue> MarshalReader::Object(int depth) {
  const size_t object_at = at_;
  if (depth > kMaxDepth)
    Fail(object_at, "objects nested more than " + std::to_string(kMaxDepth) + " deep");
  const uint8_t byte = Byte(object_at, "an object");
  const uint8_t code = byte & ~kFlagRef;
  const bool ref = (byte & kFlagRef) != 0;
  using Kind = MarshalValue::Kind;
  std::shared_ptr<MarshalValue> v;
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
      if (refs_[index] == nullptr) {
        Fail(object_at, "a reference to object " + std::to_string(index) +
                            ", which is still being read (a container in itself)");
      }
      return refs_[index];
    }
    case 'N':
    case 'F':
    case 'T': {
      // One object each, shared: a byte of input must not cost an object's memory.
      static const auto kNone = std::make_shared<const MarshalValue>();
      static const auto kFalse = Bool(false), kTrue = Bool(true);
      const auto& shared = code == 'N' ? kNone : code == 'T' ? kTrue : kFalse;
      if (ref) refs_.push_back(shared);
      return shared;
    }
    case 'i':
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kInt;
      v->i = Int32(object_at, "an int");
      break;
    case 'I':  // marshal version 0's 64-bit int
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kInt;
      v->i = Fixed<int64_t>(object_at, "an int");
      break;
    case 'l':
      v = Long(object_at);
      break;
    case 'g':
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kFloat;
      v->f = Fixed<double>(object_at, "a float");
      break;
    case 'f': {
      const size_t n = Byte(object_at, "a float");
      Need(n, object_at, "a float");
      const std::string text = Text(n);
      char* end = nullptr;
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kFloat;
      v->f = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size())
        Fail(object_at, "a float that is not a number");
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
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kString;
      v->is_bytes = code == 's';
      v->s = Text(n);
      break;
    }
    case 'c':
      return Code(ref, object_at, depth);
    case 'S':
    case '.':
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kOther;
      break;
    case 'y':  // two binary doubles
      Need(16, object_at, "a complex number");
      at_ += 16;
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kOther;
      break;
    case 'x':  // two floats as text
      for (int part = 0; part < 2; ++part) {
        const size_t n = Byte(object_at, "a complex number");
        Need(n, object_at, "a complex number");
        at_ += n;
      }
      v = std::make_shared<MarshalValue>();
      v->kind = Kind::kOther;
      break;
    case '0':
      Fail(object_at, "a NULL where an object belongs");
    default: {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", byte);
      Fail(object_at, std::string("an unknown type code ") + hex);
    }
  }
  if (ref) refs_.push_back(v);
  return v;
}

}  // namespace

std::shared_ptr<const MarshalValue> ReadMarshal(std::string_view bytes, const std::string& name,
                                                size_t* end) {
  MarshalReader reader(bytes, name);
  auto value = reader.Object(0);
  if (end != nullptr) *end = reader.position();
  return value;
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
