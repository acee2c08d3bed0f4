#include "common/jfr/jfr_values.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <utility>

namespace proftools {

void JfrDecoder::Step(const JfrInput& in) {
  if (budget_ == 0) in.Fail("a value too large for its bytes (arrays of empty values?)");
  --budget_;
}

void JfrDecoder::ReadField(JfrInput* in, const JfrField& field, JfrValue* out) {
  budget_ = 64 * in->remaining() + 1024;
  Field(in, field, out, 0);
}

void JfrDecoder::ReadValue(JfrInput* in, size_t type, JfrValue* out) {
  budget_ = 64 * in->remaining() + 1024;
  Value(in, type, out, 0);
}

void JfrDecoder::Field(JfrInput* in, const JfrField& field, JfrValue* out, int depth) {
  Step(*in);
  if (field.array) {
    out->tag = JfrValue::kArray;
    const JfrType& element = metadata_.types[field.type];
    if (!field.pooled && element.can_be_empty) {
      in->Fail("an array of " + element.name + ", values that take no bytes");
    }
    // Every element takes a byte at least; more than kMaxArray would be no recording's.
    const uint64_t count =
        in->Count(std::min<uint64_t>(in->remaining(), kMaxArray), "an array's length");
    out->items.resize(count);
    for (JfrValue& item : out->items) {
      Step(*in);
      if (field.pooled) {
        item.tag = JfrValue::kRef;
        item.type = field.type;
        item.i = static_cast<int64_t>(in->Varint());
      } else {
        Value(in, field.type, &item, depth);
      }
    }
    return;
  }
  if (field.pooled) {
    out->tag = JfrValue::kRef;
    out->type = field.type;
    out->i = static_cast<int64_t>(in->Varint());
    return;
  }
  Value(in, field.type, out, depth);
}

void JfrDecoder::Value(JfrInput* in, size_t type_index, JfrValue* out, int depth) {
  const JfrType& type = metadata_.types[type_index];
  switch (type.kind) {
    case JfrKind::kBoolean:
    case JfrKind::kByte:
      out->tag = JfrValue::kInt;
      out->i = static_cast<int8_t>(in->Byte());
      if (type.kind == JfrKind::kBoolean) out->i = out->i != 0;
      return;
    case JfrKind::kChar:
    case JfrKind::kShort:
    case JfrKind::kInt:
    case JfrKind::kLong: {
      const uint64_t v = in->Varint();
      out->tag = JfrValue::kInt;
      out->i = type.kind == JfrKind::kLong   ? static_cast<int64_t>(v)
               : type.kind == JfrKind::kInt  ? static_cast<int32_t>(static_cast<uint32_t>(v))
               : type.kind == JfrKind::kChar ? static_cast<int64_t>(static_cast<uint16_t>(v))
                                             : static_cast<int16_t>(static_cast<uint16_t>(v));
      return;
    }
    case JfrKind::kFloat: {
      const uint32_t bits = static_cast<uint32_t>(in->BigEndian(4));
      float f;
      std::memcpy(&f, &bits, 4);
      out->tag = JfrValue::kFloat;
      out->d = f;
      return;
    }
    case JfrKind::kDouble: {
      const uint64_t bits = in->BigEndian(8);
      std::memcpy(&out->d, &bits, 8);
      out->tag = JfrValue::kFloat;
      return;
    }
    case JfrKind::kString: {
      JfrString s;
      in->ReadString(&s);
      if (s.tag == JfrStringTag::kNull) {
        out->tag = JfrValue::kNull;
      } else if (s.tag == JfrStringTag::kPoolRef) {
        out->tag = JfrValue::kRef;
        out->type = type_index;
        out->i = static_cast<int64_t>(s.key);
      } else {
        out->tag = JfrValue::kString;
        out->s = std::move(s.text);
      }
      return;
    }
    case JfrKind::kStruct:
      break;
  }
  if (depth >= kMaxNesting) {
    in->Fail("a value of " + type.name + " nested more than " + std::to_string(kMaxNesting) +
             " deep (a type that contains itself?)");
  }
  out->tag = JfrValue::kStruct;
  out->type = type_index;
  out->items.resize(type.fields.size());
  for (size_t f = 0; f < type.fields.size(); ++f) {
    Field(in, type.fields[f], &out->items[f], depth + 1);
  }
}

JfrPools::JfrPools(std::string_view file, const std::string* name, const JfrChunk& chunk,
                   const JfrMetadata& metadata) {
  JfrDecoder decoder(&metadata);
  uint64_t at = chunk.pools;
  std::unordered_set<uint64_t> seen;
  while (at != 0) {
    JfrInput in(file, name, at, chunk.end);
    if (!seen.insert(at).second) in.Fail("the constant pools' chain comes back here (a loop)");
    const uint64_t size = in.Count(chunk.end - at, "a constant-pool event's size");
    if (size == 0) in.FailAt(at, "a constant-pool event of 0 bytes");
    in = JfrInput(file, name, in.position(), at + size);
    const uint64_t type_at = in.position();
    if (in.Varint() != 1) in.FailAt(type_at, "a constant-pool offset points at another event");
    in.Varint();  // start time
    in.Varint();  // duration
    const uint64_t delta_at = in.position();
    const int64_t delta = static_cast<int64_t>(in.Varint());
    in.Byte();  // whether it was a flush
    const uint64_t pools = in.Count(in.remaining(), "a count of pools");
    JfrValue value;
    for (uint64_t p = 0; p < pools; ++p) {
      const uint64_t id_at = in.position();
      const uint64_t id = in.Varint();
      const auto type = metadata.by_id.find(id);
      if (type == metadata.by_id.end()) {
        in.FailAt(id_at, "a constant pool of class " + std::to_string(id) +
                             ", which the metadata does not define");
      }
      const uint64_t count = in.Count(in.remaining(), "a pool's count of entries");
      for (uint64_t e = 0; e < count; ++e) {
        const uint64_t key = in.Varint();
        decoder.ReadValue(&in, type->second, &value);
        values_[{type->second, key}] =
            std::move(value);  // a later flush's entry wins, as the JDK's
        value = JfrValue();
      }
    }
    if (delta == 0) break;
    const uint64_t next = at + static_cast<uint64_t>(delta);
    if (next < chunk.start + kJfrChunkHeaderSize || next >= chunk.end) {
      in.FailAt(delta_at,
                "a constant-pool delta of " + std::to_string(delta) + " that leaves the chunk");
    }
    at = next;
  }
}

const JfrValue* JfrPools::Find(size_t type, uint64_t key) const {
  const auto it = values_.find({type, key});
  return it == values_.end() ? nullptr : &it->second;
}

const JfrValue* JfrDeref(const JfrValue& value, const JfrPools& pools) {
  const JfrValue* v = &value;
  // A pooled string may itself be a reference; a few steps, never a loop.
  for (int i = 0; i < 4 && v != nullptr && v->tag == JfrValue::kRef; ++i) {
    v = pools.Find(v->type, static_cast<uint64_t>(v->i));
  }
  return v != nullptr && v->tag == JfrValue::kRef ? nullptr : v;
}

const JfrValue* JfrFieldOf(const JfrValue& value, const JfrMetadata& metadata, const char* name) {
  if (value.tag != JfrValue::kStruct) return nullptr;
  const int i = metadata.types[value.type].FieldIndex(name);
  return i < 0 ? nullptr : &value.items[static_cast<size_t>(i)];
}

std::string JfrText(const JfrValue& value, const JfrMetadata& metadata, const JfrPools& pools) {
  const JfrValue* v = JfrDeref(value, pools);
  for (int depth = 0; v != nullptr && depth < 4; ++depth) {
    if (v->tag == JfrValue::kString) return v->s;
    if (v->tag != JfrValue::kStruct) return "";
    const JfrValue* next = nullptr;
    for (const char* name : {"name", "string", "description"}) {
      if ((next = JfrFieldOf(*v, metadata, name)) != nullptr) break;
    }
    if (next == nullptr && v->items.size() == 1) next = &v->items[0];
    if (next == nullptr) return "";
    v = JfrDeref(*next, pools);
  }
  return "";
}

}  // namespace proftools
