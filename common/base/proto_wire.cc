#include "common/base/proto_wire.h"

#include <cstring>

namespace proftools {

double ProtoField::Double() const {
  double d;
  static_assert(sizeof(d) == sizeof(value), "a double is 64 bits");
  std::memcpy(&d, &value, sizeof(d));
  return d;
}

uint64_t ProtoReader::ReadLongVarint(std::string_view data, size_t* i, uint64_t offset) {
  // Ten bytes ahead (the common case, away from a message's end): no bound to check per byte.
  if (data.size() - *i >= 10) {
    const auto* p = reinterpret_cast<const uint8_t*>(data.data()) + *i;
    uint64_t value = 0;
    for (int k = 0; k < 9; ++k) {
      value |= static_cast<uint64_t>(p[k] & 0x7f) << (7 * k);
      if (p[k] < 0x80) {
        *i += k + 1;
        return value;
      }
    }
    if (p[9] > 1) throw ProtoWireError(offset + *i + 9, "a varint past 64 bits");
    *i += 10;
    return value | static_cast<uint64_t>(p[9]) << 63;
  }
  uint64_t value = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*i >= data.size()) {
      throw ProtoWireError(offset + *i, "a varint cut by the end of its message");
    }
    const uint8_t byte = static_cast<uint8_t>(data[(*i)++]);
    // The tenth byte holds the top bit only; more is no 64-bit varint.
    if (shift == 63 && byte > 1) throw ProtoWireError(offset + *i - 1, "a varint past 64 bits");
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return value;
  }
  throw ProtoWireError(offset + *i, "a varint longer than 10 bytes");
}

void ProtoReader::BadNumber(uint64_t offset, uint64_t number) {
  throw ProtoWireError(
      offset, "a field numbered " + std::to_string(number) + " (not a protobuf message here)");
}

void ProtoReader::PastTheEnd(const ProtoField& field, const char* what, uint64_t need) const {
  throw ProtoWireError(field.offset, std::string(what) + " of field " +
                                         std::to_string(field.number) +
                                         " goes past the end of its message by " +
                                         std::to_string(need - (data_.size() - pos_)) + " bytes");
}

bool ProtoReader::NextFixed(ProtoField* field, uint64_t tag) {
  switch (tag & 7) {
    case 1:
      field->type = WireType::kFixed64;
      if (8 > data_.size() - pos_) PastTheEnd(*field, "the 8 bytes", 8);
      std::memcpy(&field->value, data_.data() + pos_, 8);  // little-endian, as x86 and ARM are
      pos_ += 8;
      return true;
    case 5: {
      field->type = WireType::kFixed32;
      if (4 > data_.size() - pos_) PastTheEnd(*field, "the 4 bytes", 4);
      uint32_t bits;
      std::memcpy(&bits, data_.data() + pos_, 4);
      field->value = bits;
      pos_ += 4;
      return true;
    }
    default:
      throw ProtoWireError(field->offset, "field " + std::to_string(field->number) +
                                              " has wire type " + std::to_string(tag & 7) +
                                              " (groups, or not a protobuf message here)");
  }
}

}  // namespace proftools
