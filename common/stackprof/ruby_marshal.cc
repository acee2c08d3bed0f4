#include "common/stackprof/ruby_marshal.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "common/base/diagnostics.h"

namespace proftools {

using Kind = RubyValue::Kind;

struct RubyMarshal::Reader {
  Reader(std::string_view bytes, const std::string& name, std::vector<RubyValue>* nodes)
      : bytes_(bytes), name_(name), nodes_(*nodes) {}

  [[noreturn]] void Fail(uint64_t byte, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(byte) + ": " + what);
  }

  size_t left() const { return bytes_.size() - pos_; }

  uint8_t Byte() {
    if (pos_ >= bytes_.size()) Fail(pos_, "the data ends inside an object");
    return static_cast<uint8_t>(bytes_[pos_++]);
  }

  // marshal.c's w_long: small values in one byte, others in 1 to 4 bytes, little-endian.
  int64_t Long() {
    const auto c = static_cast<int8_t>(Byte());
    if (c == 0) return 0;
    if (c > 4) return c - 5;
    if (c < -4) return c + 5;
    if (c > 0) {
      int64_t x = 0;
      for (int i = 0; i < c; ++i) x |= static_cast<int64_t>(Byte()) << (8 * i);
      return x;
    }
    int64_t x = -1;
    for (int i = 0; i < -c; ++i) {
      x &= ~(int64_t{0xff} << (8 * i));
      x |= static_cast<int64_t>(Byte()) << (8 * i);
    }
    return x;
  }

  // A size: not negative, and at most the bytes left divided by what each unit takes at least.
  // `unit` names what is counted ("elements").
  uint32_t Size(const char* what, const char* unit, size_t min_bytes_each) {
    const uint64_t at = pos_;
    const int64_t n = Long();
    if (n < 0) Fail(at, std::string(what) + " of " + std::to_string(n) + " " + unit);
    if (static_cast<uint64_t>(n) > left() / min_bytes_each ||
        static_cast<uint64_t>(n) > std::numeric_limits<uint32_t>::max() / 2) {
      Fail(at, std::string(what) + " of " + std::to_string(n) + " " + unit +
                   " runs past the end of the data");
    }
    return static_cast<uint32_t>(n);
  }

  // Bytes with their length first; sets `value` first/count to them.
  void Text(RubyValue* value, const char* what) {
    value->count = Size(what, "bytes", 1);
    value->first = pos_;
    pos_ += value->count;
  }

  uint32_t NewNodes(uint32_t n) {
    const size_t first = nodes_.size();
    if (first + n > std::numeric_limits<uint32_t>::max()) Fail(pos_, "too many objects");
    nodes_.resize(first + n);
    return static_cast<uint32_t>(first);
  }

  // A symbol (':' or a link to one, ';'), possibly with instance variables ('I'); its index in
  // the symbol table.
  size_t Symbol(int depth) {
    const uint64_t at = pos_;
    const uint8_t type = Byte();
    if (type == ';') {
      const int64_t index = Long();
      if (index < 0 || static_cast<uint64_t>(index) >= symbols_.size()) {
        Fail(at, "a link to symbol " + std::to_string(index) + ", of " +
                     std::to_string(symbols_.size()) + " read");
      }
      return static_cast<size_t>(index);
    }
    if (type == 'I') {
      const size_t symbol = Symbol(depth);
      InstanceVariables(depth);
      return symbol;
    }
    if (type != ':') Fail(at, "a symbol was expected, not type code " + Code(type));
    RubyValue value;
    Text(&value, "a symbol");
    symbols_.push_back(value);
    return symbols_.size() - 1;
  }

  // A count, then that many (symbol, value) pairs: read, not kept.
  void InstanceVariables(int depth) {
    const uint32_t n = Size("a list of instance variables", "entries", 2);
    for (uint32_t i = 0; i < n; ++i) {
      Symbol(depth);
      Object(NewNodes(1), depth);
    }
  }

  static std::string Code(uint8_t type) {
    if (type >= 0x21 && type < 0x7f) return std::string("'") + static_cast<char>(type) + "'";
    return "0x" + std::string(1, "0123456789abcdef"[type >> 4]) + "0123456789abcdef"[type & 15];
  }

  // Registers the object being read into `slot` (marshal.c's r_entry): links count them.
  void Remember(uint32_t slot) {
    objects_.push_back(slot);
    complete_.push_back(false);
  }

  // Reads one object into nodes_[slot].
  void Object(uint32_t slot, int depth) {
    if (depth > kMaxDepth) Fail(pos_, "objects nested past " + std::to_string(kMaxDepth) + " deep");
    const uint64_t at = pos_;
    const uint8_t type = Byte();
    RubyValue value;
    value.byte = at;
    size_t registered = objects_.size();  // the entry this object gets, if it gets one
    switch (type) {
      case '0':
        value.kind = Kind::kNil;
        break;
      case 'T':
      case 'F':
        value.kind = Kind::kBool;
        value.integer = type == 'T';
        break;
      case 'i':
        value.kind = Kind::kInteger;
        value.integer = Long();
        break;
      case ':':
      case ';':
        --pos_;
        value = symbols_[Symbol(depth)];
        value.kind = Kind::kSymbol;
        value.byte = at;
        break;
      case '@': {
        const int64_t index = Long();
        if (index < 0 || static_cast<uint64_t>(index) >= objects_.size()) {
          Fail(at, "a link to object " + std::to_string(index) + ", of " +
                       std::to_string(objects_.size()) + " read");
        }
        if (!complete_[static_cast<size_t>(index)]) {
          Fail(at, "a link to object " + std::to_string(index) + ", which contains it");
        }
        nodes_[slot] = nodes_[objects_[static_cast<size_t>(index)]];
        return;
      }
      case 'I': {
        // An object with instance variables (a string's encoding): the object, then them.
        Object(slot, depth + 1);
        InstanceVariables(depth + 1);
        return;
      }
      case 'l': {
        Remember(slot);
        value.kind = Kind::kInteger;
        const uint8_t sign = Byte();
        if (sign != '+' && sign != '-') Fail(at + 1, "a bignum's sign is " + Code(sign));
        const uint32_t shorts = Size("a bignum", "16-bit digits", 2);
        uint64_t magnitude = 0;
        for (uint32_t i = 0; i < shorts * 2; ++i) {
          const uint8_t b = Byte();
          if (i < 8) {
            magnitude |= static_cast<uint64_t>(b) << (8 * i);
          } else if (b != 0) {
            value.big = true;
          }
        }
        if (sign == '+') {
          value.big = value.big || magnitude > static_cast<uint64_t>(INT64_MAX);
          value.integer = static_cast<int64_t>(magnitude);
        } else {
          value.big = value.big || magnitude > uint64_t{1} << 63;
          value.integer = static_cast<int64_t>(0 - magnitude);
        }
        break;
      }
      case 'f': {
        Remember(slot);
        value.kind = Kind::kFloat;
        Text(&value, "a float");
        std::string written(bytes_.substr(value.first, value.count));
        written = written.substr(0, written.find('\0'));  // old dumps add mantissa bytes
        if (written == "nan") {
          value.real = std::nan("");
        } else if (written == "inf" || written == "-inf") {
          value.real = written[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        } else {
          char* end = nullptr;
          value.real = std::strtod(written.c_str(), &end);
          if (written.empty() || *end != '\0') Fail(at, "a float written \"" + written + "\"");
        }
        break;
      }
      case '"':
        Remember(slot);
        value.kind = Kind::kString;
        Text(&value, "a string");
        break;
      case '/':
        Remember(slot);
        value.kind = Kind::kOther;
        Text(&value, "a regexp");
        Byte();  // its options
        break;
      case 'c':
      case 'm':
      case 'M':
        Remember(slot);
        value.kind = Kind::kOther;
        Text(&value, "a class or module name");
        break;
      case '[': {
        Remember(slot);
        value.kind = Kind::kArray;
        value.count = Size("an array", "elements", 1);
        value.first = NewNodes(value.count);
        nodes_[slot] = value;
        for (uint32_t i = 0; i < value.count; ++i) {
          Object(static_cast<uint32_t>(value.first) + i, depth + 1);
        }
        break;
      }
      case '{':
      case '}': {
        Remember(slot);
        value.kind = Kind::kHash;
        value.count = Size("a hash", "entries", 2) * 2;
        value.first = NewNodes(value.count);
        nodes_[slot] = value;
        for (uint32_t i = 0; i < value.count; ++i) {
          Object(static_cast<uint32_t>(value.first) + i, depth + 1);
        }
        if (type == '}') Object(NewNodes(1), depth + 1);  // the default value
        break;
      }
      case 'o': {  // an object: its class, then its instance variables
        Symbol(depth);
        Remember(slot);
        value.kind = Kind::kOther;
        InstanceVariables(depth + 1);
        break;
      }
      case 'S': {  // a struct: its class, then its members
        Symbol(depth);
        Remember(slot);
        value.kind = Kind::kOther;
        InstanceVariables(depth + 1);
        break;
      }
      case 'C':    // an object of a subclass of String, Array, Hash or Regexp
      case 'e': {  // an object extended by a module
        Symbol(depth);
        Object(slot, depth + 1);
        return;
      }
      case 'u': {  // _dump's bytes
        Symbol(depth);
        Remember(slot);
        value.kind = Kind::kOther;
        Text(&value, "_dump data");
        break;
      }
      case 'U':    // marshal_dump's object
      case 'd': {  // a T_DATA object's
        Symbol(depth);
        Remember(slot);
        value.kind = Kind::kOther;
        nodes_[slot] = value;
        Object(NewNodes(1), depth + 1);
        break;
      }
      default:
        Fail(at, "type code " + Code(type) + " is not Marshal's");
    }
    nodes_[slot] = value;
    if (registered < objects_.size()) complete_[registered] = true;
  }

  std::string_view bytes_;
  const std::string& name_;
  std::vector<RubyValue>& nodes_;
  size_t pos_ = 0;
  std::vector<RubyValue> symbols_;
  std::vector<uint32_t> objects_;  // the node of each object that links may name
  std::vector<bool> complete_;
};

RubyMarshal::RubyMarshal(std::string_view bytes, const std::string& name) : bytes_(bytes) {
  if (bytes.size() < 2 || bytes[0] != 4 || bytes[1] != 8) {
    throw ProfError(name, "byte 0: not Ruby's Marshal 4.8 data");
  }
  Reader reader(bytes, name, &nodes_);
  reader.pos_ = 2;
  nodes_.resize(1);
  reader.Object(0, 0);
  if (reader.left() != 0) {
    reader.Fail(reader.pos_, std::to_string(reader.left()) +
                                 (reader.left() == 1 ? " byte" : " bytes") + " after the object");
  }
}

const char* RubyMarshal::KindName(RubyValue::Kind kind) {
  switch (kind) {
    case Kind::kNil:
      return "nil";
    case Kind::kBool:
      return "a boolean";
    case Kind::kInteger:
      return "an integer";
    case Kind::kFloat:
      return "a float";
    case Kind::kSymbol:
      return "a symbol";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kHash:
      return "a hash";
    case Kind::kOther:
      break;
  }
  return "an object of another class";
}

}  // namespace proftools
