#include "common/pstats/cprofile_direct.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace proftools {
namespace {

constexpr uint8_t kMarkedForReference = 0x80;  // FLAG_REF

struct NotTheShape {};  // thrown to give up: the data is read the general way

// What an object marked for reference (FLAG_REF) was, for the references to it: numbered as
// Python numbers them (a container before its contents).
struct Referenced {
  enum class Kind : uint8_t { kBeingRead, kInt, kFloat, kString, kKey, kOther };
  Kind kind = Kind::kBeingRead;
  uint32_t size = 0;  // kString: its bytes
  union {
    int64_t i = 0;      // kInt
    double f;           // kFloat
    uint64_t first;     // kString: its offset in the input
    uint32_t function;  // kKey: the function it stands for
  };
};

class DirectReader {
 public:
  DirectReader(std::string_view bytes, PstatsGraph* graph) : bytes_(bytes), graph_(*graph) {}

  void Read() {
    const uint8_t root = Byte();
    if ((root & ~kMarkedForReference) != '{') GiveUp();
    Reserve(root);
    graph_.Reserve(bytes_.size());
    for (uint32_t entry = 0; !DictEnds(); ++entry) Entry(entry);
    if (at_ != bytes_.size()) GiveUp();  // bytes after the dict: the general reading says so
  }

 private:
  using Kind = Referenced::Kind;

  [[noreturn]] static void GiveUp() { throw NotTheShape(); }
  uint8_t Byte() {
    if (at_ >= bytes_.size()) GiveUp();
    return static_cast<uint8_t>(bytes_[at_++]);
  }
  template <typename T>
  T Fixed() {
    if (bytes_.size() - at_ < sizeof(T)) GiveUp();
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);  // little-endian, as marshal.cc
    at_ += sizeof value;
    return value;
  }
  // The object a reference ('r') names.
  const Referenced& Reference() {
    const int32_t index = Fixed<int32_t>();
    if (index < 0 || static_cast<size_t>(index) >= refs_.size()) GiveUp();
    return refs_[static_cast<size_t>(index)];
  }
  // The same, complete and of `kind`.
  const Referenced& Reference(Kind kind) {
    const Referenced& object = Reference();
    if (object.kind != kind) GiveUp();
    return object;
  }
  // A container's number, when its first byte marks it for reference: kOther once read, unless
  // the caller says what it was.
  size_t Reserve(uint8_t byte) {
    if ((byte & kMarkedForReference) == 0) return SIZE_MAX;
    refs_.emplace_back();
    return refs_.size() - 1;
  }
  void Keep(uint8_t byte, const Referenced& object) {
    if ((byte & kMarkedForReference) != 0) refs_.push_back(object);
  }
  void Complete(size_t slot, const Referenced& object) {
    if (slot != SIZE_MAX) refs_[slot] = object;
  }
  static Referenced Of(Kind kind) {
    Referenced object;
    object.kind = kind;
    return object;
  }
  static Referenced Int(int64_t value) {
    Referenced object = Of(Kind::kInt);
    object.i = value;
    return object;
  }
  static Referenced Float(double value) {
    Referenced object = Of(Kind::kFloat);
    object.f = value;
    return object;
  }
  // The end of a dict ('0', read) or another entry.
  bool DictEnds() {
    if (at_ >= bytes_.size()) GiveUp();
    if (bytes_[at_] != '0') return false;
    ++at_;
    return true;
  }
  // A tuple's first byte is read: its size must be `size`.
  void TupleOf(uint8_t code, uint32_t size) {
    const int64_t n = code == ')' ? Byte() : code == '(' ? Fixed<int32_t>() : -1;
    if (n != size) GiveUp();
  }

  // An int of at least 0 (calls, a line): 'i', or a reference to one.
  int64_t Count() {
    const uint8_t byte = Byte();
    int64_t value = 0;
    switch (byte & ~kMarkedForReference) {
      case 'i':
        value = Fixed<int32_t>();
        Keep(byte, Int(value));
        break;
      case 'r':
        value = Reference(Kind::kInt).i;
        break;
      default:
        GiveUp();
    }
    if (value < 0) GiveUp();
    return value;
  }
  // Seconds as nanoseconds: a binary float or an int, or a reference to either.
  int64_t Nanos() {
    const uint8_t byte = Byte();
    double seconds = 0;
    switch (byte & ~kMarkedForReference) {
      case 'g':
        seconds = Fixed<double>();
        Keep(byte, Float(seconds));
        break;
      case 'i': {
        const int32_t value = Fixed<int32_t>();
        seconds = static_cast<double>(value);
        Keep(byte, Int(value));
        break;
      }
      case 'r': {
        const Referenced& object = Reference();
        if (object.kind == Kind::kFloat) {
          seconds = object.f;
        } else if (object.kind == Kind::kInt) {
          seconds = static_cast<double>(object.i);
        } else {
          GiveUp();
        }
        break;
      }
      default:
        GiveUp();
    }
    int64_t nanos = 0;
    if (!SecondsAsNanos(seconds, &nanos)) GiveUp();
    return nanos;
  }
  // A string's bytes (text or bytes, as marshal.cc reads them), or a reference to one.
  std::string_view String() {
    const uint8_t byte = Byte();
    const uint8_t code = byte & ~kMarkedForReference;
    if (code == 'r') {
      const Referenced& object = Reference(Kind::kString);
      return bytes_.substr(object.first, object.size);
    }
    size_t n = 0;
    if (code == 'z' || code == 'Z') {
      n = Byte();
    } else if (code == 's' || code == 't' || code == 'u' || code == 'a' || code == 'A') {
      const int32_t size = Fixed<int32_t>();
      if (size < 0) GiveUp();
      n = static_cast<size_t>(size);
    } else {
      GiveUp();
    }
    if (bytes_.size() - at_ < n) GiveUp();
    Referenced object = Of(Kind::kString);
    object.first = at_;
    object.size = static_cast<uint32_t>(n);
    Keep(byte, object);
    at_ += n;
    return bytes_.substr(object.first, n);
  }
  // A key (file, line, name), or a reference to one: its function.
  uint32_t Key() {
    const uint8_t byte = Byte();
    const uint8_t code = byte & ~kMarkedForReference;
    if (code == 'r') return Reference(Kind::kKey).function;
    TupleOf(code, 3);
    const size_t slot = Reserve(byte);
    const std::string_view file = String();
    const int64_t line = Count();
    const std::string_view name = String();
    Referenced key = Of(Kind::kKey);
    key.function = graph_.FunctionOf(file, line, name);
    Complete(slot, key);
    return key.function;
  }
  // A function's entry: its key, then (primitive calls, calls, self, cumulative, callers).
  void Entry(uint32_t entry) {
    const uint32_t callee = Key();
    const uint8_t byte = Byte();
    TupleOf(byte & ~kMarkedForReference, 5);
    const size_t slot = Reserve(byte);
    Count();  // primitive calls
    Count();  // calls
    graph_.BeginEntry(entry, callee, Nanos());
    Nanos();  // cumulative
    const uint8_t dict = Byte();
    if ((dict & ~kMarkedForReference) != '{') GiveUp();
    const size_t dict_slot = Reserve(dict);
    while (!DictEnds()) {
      const uint32_t caller = Key();
      const uint8_t edge = Byte();
      TupleOf(edge & ~kMarkedForReference, 4);
      const size_t edge_slot = Reserve(edge);
      const int64_t calls = Count();
      Count();  // primitive calls
      Nanos();  // self
      const int64_t nanos = Nanos();
      Complete(edge_slot, Of(Kind::kOther));
      graph_.AddCaller(caller, static_cast<uint64_t>(calls), nanos);
    }
    Complete(dict_slot, Of(Kind::kOther));
    Complete(slot, Of(Kind::kOther));
  }

  std::string_view bytes_;
  PstatsGraph& graph_;
  size_t at_ = 0;
  std::vector<Referenced> refs_;
};

}  // namespace

bool ReadCProfileDirect(std::string_view bytes, PstatsGraph* graph) {
  try {
    DirectReader(bytes, graph).Read();
    return true;
  } catch (const NotTheShape&) {
    return false;
  }
}

}  // namespace proftools
