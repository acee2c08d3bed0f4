#include "common/pprof/pprof_messages.h"

#include "formats/profile.pb.h"

namespace proftools {
namespace {

namespace pb = perftools::profiles;

constexpr uint8_t kVarint = 0, kLengthDelimited = 2;

// A cursor over a message's bytes. Each step returns false where the common form ends (the
// bytes are then given to libprotobuf, which reads them or says they are malformed).
class Cursor {
 public:
  explicit Cursor(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}
  bool AtEnd() const { return p_ == end_; }

  // A one-byte tag: the field number (1-15) and wire type.
  bool Tag(int* field, uint8_t* wire) {
    if (p_ == end_ || *p_ >= 0x80 || *p_ < 8) return false;
    *field = *p_ >> 3;
    *wire = *p_ & 7;
    ++p_;
    return true;
  }

  bool Byte(uint8_t* byte) {
    if (p_ == end_) return false;
    *byte = *p_++;
    return true;
  }

  // A varint of at most 10 bytes; bits past 64 are dropped, as libprotobuf drops them.
  bool Varint(uint64_t* value) {
    if (p_ != end_ && *p_ < 0x80) {  // one byte: most ids, lengths and lines
      *value = *p_++;
      return true;
    }
    uint64_t result = 0;
    // Unrolled, so that each byte's shift is a constant.
#pragma GCC unroll 10
    for (int i = 0; i < 10; ++i) {
      if (p_ == end_) return false;
      const uint8_t byte = *p_++;
      result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) {
        *value = result;
        return true;
      }
    }
    return false;
  }

  bool Delimited(std::string_view* bytes) {
    uint64_t length;
    if (!Varint(&length) || length > static_cast<uint64_t>(end_ - p_)) return false;
    *bytes = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(length));
    p_ += length;
    return true;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Decodes the message's varint fields numbered 1 to `count` with `set(field, value)`, in the
// common form only.
template <typename Set>
bool VarintFields(std::string_view bytes, int count, Set set) {
  Cursor in(bytes);
  while (!in.AtEnd()) {
    int field;
    uint8_t wire;
    uint64_t value;
    if (!in.Tag(&field, &wire) || wire != kVarint || field > count || !in.Varint(&value)) {
      return false;
    }
    set(field, value);
  }
  return true;
}

// The tags of the common form, by field number and wire type.
constexpr uint8_t TagByte(int field, uint8_t wire) {
  return static_cast<uint8_t>(field << 3 | wire);
}

bool FastLine(std::string_view bytes, PbLine* line) {
  Cursor in(bytes);
  while (!in.AtEnd()) {
    uint8_t tag;
    uint64_t value;
    if (!in.Byte(&tag) || !in.Varint(&value)) return false;
    switch (tag) {
      case TagByte(1, kVarint):
        line->function_id = value;
        break;
      case TagByte(2, kVarint):
        line->line = static_cast<int64_t>(value);
        break;
      case TagByte(3, kVarint):
        line->column = static_cast<int64_t>(value);
        break;
      default:
        return false;
    }
  }
  return true;
}

// By the tag's byte, not its field and wire type apart: locations are most of what a fleet's
// inputs decode.
bool FastLocation(std::string_view bytes, PbLocation* out) {
  Cursor in(bytes);
  while (!in.AtEnd()) {
    uint8_t tag;
    if (!in.Byte(&tag)) return false;
    if (tag == TagByte(4, kLengthDelimited)) {
      std::string_view line_bytes;
      if (!in.Delimited(&line_bytes)) return false;
      if (!FastLine(line_bytes, &out->lines.emplace_back())) return false;
      continue;
    }
    uint64_t value;
    if (!in.Varint(&value)) return false;
    switch (tag) {
      case TagByte(1, kVarint):
        out->id = value;
        break;
      case TagByte(2, kVarint):
        out->mapping_id = value;
        break;
      case TagByte(3, kVarint):
        out->address = value;
        break;
      case TagByte(5, kVarint):
        out->is_folded = value != 0;
        break;
      default:
        return false;
    }
  }
  return true;
}

void Reset(PbLocation* out) {
  out->id = out->mapping_id = out->address = 0;
  out->is_folded = false;
  out->lines.clear();
}

}  // namespace

bool DecodeLocation(std::string_view bytes, PbLocation* out) {
  Reset(out);
  if (FastLocation(bytes, out)) return true;
  Reset(out);
  pb::Location message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  out->id = message.id();
  out->mapping_id = message.mapping_id();
  out->address = message.address();
  out->is_folded = message.is_folded();
  for (const pb::Line& line : message.line()) {
    out->lines.push_back({line.function_id(), line.line(), line.column()});
  }
  return true;
}

bool DecodeFunction(std::string_view bytes, PbFunction* out) {
  *out = PbFunction();
  const bool fast = VarintFields(bytes, 5, [&](int field, uint64_t value) {
    if (field == 1) out->id = value;
    if (field == 2) out->name = static_cast<int64_t>(value);
    if (field == 3) out->system_name = static_cast<int64_t>(value);
    if (field == 4) out->filename = static_cast<int64_t>(value);
    if (field == 5) out->start_line = static_cast<int64_t>(value);
  });
  if (fast) return true;
  pb::Function message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  *out = PbFunction{message.id(), message.name(), message.system_name(), message.filename(),
                    message.start_line()};
  return true;
}

bool DecodeLabel(std::string_view bytes, PbLabel* out) {
  *out = PbLabel();
  const bool fast = VarintFields(bytes, 4, [&](int field, uint64_t value) {
    const int64_t number = static_cast<int64_t>(value);
    if (field == 1) out->key = number;
    if (field == 2) out->str = number;
    if (field == 3) out->num = number, out->has_num = true;
    if (field == 4) out->num_unit = number;
  });
  if (fast) return true;
  pb::Label message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  *out =
      PbLabel{message.key(), message.str(), message.num(), message.num_unit(), message.has_num()};
  return true;
}

}  // namespace proftools
