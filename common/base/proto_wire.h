// Protocol Buffers' wire format read field by field, without a schema or a generated parser: for
// formats that are protobuf messages read by field number (Perfetto's traces), where a message
// is decoded in place (strings and sub-messages are views into the input) and a field the reader
// does not know is skipped. Every length and varint is checked against the bytes there are: a
// malformed message throws ProtoWireError with the offset of the field where it went wrong.
#ifndef PROFTOOLS_COMMON_BASE_PROTO_WIRE_H_
#define PROFTOOLS_COMMON_BASE_PROTO_WIRE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace proftools {

// A malformed message: what is wrong, and the offset (in the outermost input) of the field.
class ProtoWireError : public std::runtime_error {
 public:
  ProtoWireError(uint64_t offset, const std::string& message)
      : std::runtime_error(message), offset_(offset) {}
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_;
};

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

struct ProtoField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;           // a varint's value, or a fixed32/fixed64's bits
  std::string_view bytes;       // a length-delimited field's content
  uint64_t offset = 0;          // where the field's tag is, in the outermost input
  uint64_t content_offset = 0;  // where a length-delimited field's content is
  int64_t Signed() const { return static_cast<int64_t>(value); }  // int32/int64 (not sint)
  // A fixed64 field's bits as a double.
  double Double() const;
};

class ProtoReader {
 public:
  // Reads the fields of the message `bytes`, which starts at `offset` of the outermost input.
  explicit ProtoReader(std::string_view bytes, uint64_t offset = 0) : data_(bytes), base_(offset) {}
  // A reader of a length-delimited field's content as a message.
  explicit ProtoReader(const ProtoField& field) : data_(field.bytes), base_(field.content_offset) {}

  // The next field, or false at the message's end. Throws ProtoWireError for a varint past 10
  // bytes, a length past the end, a field number 0, or a wire type the format no longer uses
  // (groups). (Inline: a trace's millions of packets go through it several fields each.)
  bool Next(ProtoField* field) {
    if (pos_ >= data_.size()) return false;
    field->offset = base_ + pos_;
    const uint64_t tag = ReadVarint(data_, &pos_, base_);
    const uint64_t number = tag >> 3;
    if (number == 0 || number > 0x1fffffff) BadNumber(field->offset, number);
    field->number = static_cast<uint32_t>(number);
    switch (tag & 7) {
      case 0:
        field->type = WireType::kVarint;
        field->value = ReadVarint(data_, &pos_, base_);
        return true;
      case 2: {
        field->type = WireType::kBytes;
        const uint64_t length = ReadVarint(data_, &pos_, base_);
        if (length > data_.size() - pos_) PastTheEnd(*field, "the length", length);
        field->content_offset = base_ + pos_;
        field->bytes = std::string_view(data_.data() + pos_, length);  // (checked above)
        pos_ += length;
        return true;
      }
      default:
        return NextFixed(field, tag);
    }
  }

  // Calls `each(uint64_t)` for every value of a repeated varint field, packed (one
  // length-delimited field) or not (this one field).
  template <typename F>
  static void ForEachVarint(const ProtoField& field, F&& each) {
    if (field.type == WireType::kVarint) {
      each(field.value);
      return;
    }
    if (field.type != WireType::kBytes) return;
    size_t i = 0;
    while (i < field.bytes.size()) {
      each(ReadVarint(field.bytes, &i, field.content_offset));
    }
  }

  // A varint at data[*i], *i moved past it; `offset` locates errors. (One or two bytes inline:
  // most tags and many values.)
  static uint64_t ReadVarint(std::string_view data, size_t* i, uint64_t offset) {
    if (*i < data.size() && static_cast<uint8_t>(data[*i]) < 0x80) {
      return static_cast<uint8_t>(data[(*i)++]);
    }
    if (*i + 1 < data.size() && static_cast<uint8_t>(data[*i + 1]) < 0x80) {
      const uint64_t value = (static_cast<uint8_t>(data[*i]) & 0x7f) |
                             uint64_t{static_cast<uint8_t>(data[*i + 1])} << 7;
      *i += 2;
      return value;
    }
    return ReadLongVarint(data, i, offset);
  }
  static uint64_t ReadLongVarint(std::string_view data, size_t* i, uint64_t offset);

 private:
  bool NextFixed(ProtoField* field, uint64_t tag);
  [[noreturn]] static void BadNumber(uint64_t offset, uint64_t number);
  [[noreturn]] void PastTheEnd(const ProtoField& field, const char* what, uint64_t need) const;

  std::string_view data_;
  uint64_t base_;
  size_t pos_ = 0;
};

// Skimming: the same wire format read by pointer, without ProtoField, offsets or exceptions, for
// a pass that needs only field numbers (a reader's first pass over millions of messages). A
// false return means malformed; the caller reads the message again with ProtoReader to say what
// and where.

// A varint at *p, before `end`, *p moved past it; false for one cut short or past 64 bits.
inline bool SkimVarint(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    const uint8_t byte = *(*p)++;
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) {
      *value = v;
      return byte <= 1 || shift < 63;
    }
  }
  return false;
}

// Past a varint whose value is not needed: up to eight bytes (times, ids) found in one word.
inline bool SkipVarint(const uint8_t** p, const uint8_t* end) {
  if (end - *p >= 8) {
    uint64_t word;
    std::memcpy(&word, *p, 8);
    const uint64_t ends = ~word & 0x8080808080808080u;  // the bytes without their top bit
    if (ends != 0) {
      *p += (__builtin_ctzll(ends) + 1) / 8;
      return true;
    }
  }
  uint64_t value;
  return SkimVarint(p, end, &value);
}

// One field at *p, before `end`, *p moved past it: its tag, and its content when it is
// length-delimited (else empty); a varint's value in *value when `value` is given (else it is
// only passed). False when malformed.
inline bool SkimField(const uint8_t** p, const uint8_t* end, uint64_t* tag, const uint8_t** content,
                      uint64_t* length, uint64_t* value) {
  *length = 0;
  if (!SkimVarint(p, end, tag) || (*tag >> 3) == 0 || (*tag >> 3) > 0x1fffffff) return false;
  switch (*tag & 7) {
    case 0:
      return value != nullptr ? SkimVarint(p, end, value) : SkipVarint(p, end);
    case 1:
    case 5: {
      const ptrdiff_t size = (*tag & 7) == 1 ? 8 : 4;
      if (end - *p < size) return false;
      *p += size;
      return true;
    }
    case 2:
      if (!SkimVarint(p, end, length) || *length > static_cast<uint64_t>(end - *p)) return false;
      *content = *p;
      *p += *length;
      return true;
    default:
      return false;
  }
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_PROTO_WIRE_H_
