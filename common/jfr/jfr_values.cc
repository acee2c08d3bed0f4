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

void JfrDecoder::ReadValue(JfrInput* in, size_t type, JfrValue* out) {
  budget_ = 64 * in->remaining() + 1024;
  Value(in, type, out, 0);
}

uint64_t JfrDecoder::ArrayLength(JfrInput* in, const JfrField& field) const {
  const JfrType& element = metadata_.types[field.type];
  if (!field.pooled && element.can_be_empty) {
    in->Fail("an array of " + element.name + ", values that take no bytes");
  }
  // Every element takes a byte at least; more than kMaxArray would be no recording's.
  return in->Count(std::min<uint64_t>(in->remaining(), kMaxArray), "an array's length");
}

void JfrDecoder::CheckNesting(const JfrInput& in, const JfrType& type, int depth) const {
  if (depth >= kMaxNesting) {
    in.Fail("a value of " + type.name + " nested more than " + std::to_string(kMaxNesting) +
            " deep (a type that contains itself?)");
  }
}

void JfrDecoder::Field(JfrInput* in, const JfrField& field, JfrValue* out, int depth) {
  Step(*in);
  if (field.array) {
    out->tag = JfrValue::kArray;
    out->items.resize(ArrayLength(in, field));
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
      in->ReadString(&string_);
      if (string_.tag == JfrStringTag::kNull) {
        out->tag = JfrValue::kNull;
      } else if (string_.tag == JfrStringTag::kPoolRef) {
        out->tag = JfrValue::kRef;
        out->type = type_index;
        out->i = static_cast<int64_t>(string_.key);
      } else {
        out->tag = JfrValue::kString;
        out->s.swap(string_.text);
      }
      return;
    }
    case JfrKind::kStruct:
      break;
  }
  CheckNesting(*in, type, depth);
  out->tag = JfrValue::kStruct;
  out->type = type_index;
  out->items.resize(type.fields.size());
  for (size_t f = 0; f < type.fields.size(); ++f) {
    Field(in, type.fields[f], &out->items[f], depth + 1);
  }
}

void JfrDecoder::SkipValue(JfrInput* in, size_t type) {
  budget_ = 64 * in->remaining() + 1024;
  Skip(in, type, 0);
}

uint64_t JfrDecoder::SkipValueButKey(JfrInput* in, size_t type_index, size_t key_field) {
  budget_ = 64 * in->remaining() + 1024;
  const JfrType& type = metadata_.types[type_index];
  CheckNesting(*in, type, 0);
  uint64_t key = 0;
  for (size_t f = 0; f < type.fields.size(); ++f) {
    if (f == key_field) {
      Step(*in);
      key = in->Varint();
    } else {
      SkipField(in, type.fields[f], 1);
    }
  }
  return key;
}

void JfrDecoder::SkipNumber(JfrInput* in, JfrKind kind) {
  switch (kind) {
    case JfrKind::kBoolean:
    case JfrKind::kByte:
      in->Byte();
      return;
    case JfrKind::kFloat:
      in->BigEndian(4);
      return;
    case JfrKind::kDouble:
      in->BigEndian(8);
      return;
    default:  // char, short, int, long (strings and structs are not numbers: not here)
      in->Varint();
      return;
  }
}

void JfrDecoder::SkipField(JfrInput* in, const JfrField& field, int depth) {
  Step(*in);
  if (field.array) {
    for (uint64_t n = ArrayLength(in, field); n > 0; --n) {
      Step(*in);
      if (field.pooled) {
        in->Varint();
      } else {
        Skip(in, field.type, depth);
      }
    }
    return;
  }
  if (field.pooled) {
    in->Varint();
    return;
  }
  Skip(in, field.type, depth);
}

void JfrDecoder::Skip(JfrInput* in, size_t type_index, int depth) {
  const JfrType& type = metadata_.types[type_index];
  if (type.flat) {  // what SkipField and Skip would do for each field, without the calls
    CheckNesting(*in, type, depth);
    for (const JfrField& field : type.fields) {
      Step(*in);
      if (field.pooled) {
        in->Varint();
      } else {
        SkipNumber(in, metadata_.types[field.type].kind);
      }
    }
    return;
  }
  if (type.kind == JfrKind::kString) {
    in->SkipString();
    return;
  }
  if (type.kind != JfrKind::kStruct) {
    SkipNumber(in, type.kind);
    return;
  }
  CheckNesting(*in, type, depth);
  for (const JfrField& field : type.fields) SkipField(in, field, depth + 1);
}

JfrPools::JfrPools(const JfrBytes& file, const std::string* name, const JfrChunk& chunk,
                   const JfrMetadata& metadata)
    : file_(file), name_(name), metadata_(&metadata) {
  JfrDecoder decoder(&metadata);
  uint64_t at = chunk.pools;
  std::unordered_set<uint64_t> seen;
  while (at != 0) {
    if (!seen.insert(at).second) {
      JfrInput(file, name, at, chunk.end)
          .Fail("the constant pools' chain comes back here (a loop)");
    }
    JfrInput in = JfrInput::Event(file, name, at, chunk.end, "a constant-pool event");
    const uint64_t type_at = in.position();
    if (in.Varint() != 1) in.FailAt(type_at, "a constant-pool offset points at another event");
    in.Varint();  // start time
    in.Varint();  // duration
    const uint64_t delta_at = in.position();
    const int64_t delta = static_cast<int64_t>(in.Varint());
    in.Byte();  // whether it was a flush
    const uint64_t pools = in.Count(in.remaining(), "a count of pools");
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
        Entry entry;
        entry.type = type->second;
        entry.key = in.Varint();
        entry.at = in.position();
        entry.end = in.end();
        decoder.SkipValue(&in, type->second);
        Add(entry, in);
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

size_t JfrPools::Slot(size_t type, uint64_t key) const {
  const size_t mask = table_.size() - 1;
  size_t i =
      static_cast<size_t>((key * 0x9e3779b97f4a7c15ULL ^ type) * 0xff51afd7ed558ccdULL >> 17);
  for (;; i = (i + 1) & mask) {
    i &= mask;
    const uint32_t e = table_[i];
    if (e == kEmpty || (entries_[e].type == type && entries_[e].key == key)) return i;
  }
}

void JfrPools::Add(const Entry& entry, const JfrInput& in) {
  if (2 * (entries_.size() + 1) > table_.size()) {
    if (entries_.size() >= kEmpty / 4) in.Fail("more constant-pool entries than are read");
    table_.assign(std::max<size_t>(64, 2 * table_.size()), kEmpty);
    for (size_t e = 0; e < entries_.size(); ++e) {
      table_[Slot(entries_[e].type, entries_[e].key)] = static_cast<uint32_t>(e);
    }
  }
  uint32_t& slot = table_[Slot(entry.type, entry.key)];
  if (slot == kEmpty) {
    slot = static_cast<uint32_t>(entries_.size());
    entries_.push_back(entry);
  } else {
    entries_[slot] = entry;  // a later flush's entry wins, as the JDK's
  }
}

const JfrValue* JfrPools::Find(size_t type, uint64_t key) const {
  if (table_.empty()) return nullptr;
  const uint32_t e = table_[Slot(type, key)];
  if (e == kEmpty) return nullptr;
  const Entry& entry = entries_[e];
  if (entry.value == kNotRead) {
    // Checked when the pools were read: reading it again succeeds the same way.
    JfrInput in(file_, name_, entry.at, entry.end);
    JfrDecoder decoder(metadata_);
    values_.emplace_back();
    decoder.ReadValue(&in, type, &values_.back());
    entry.value = values_.size() - 1;
  }
  return &values_[entry.value];
}

const JfrValue* JfrDeref(const JfrValue& value, const JfrPools& pools) {
  const JfrValue* v = &value;
  // A pooled string may itself be a reference; a few steps, never a loop.
  for (int i = 0; i < 4 && v != nullptr && v->tag == JfrValue::kRef; ++i) {
    v = pools.Find(v->type, static_cast<uint64_t>(v->i));
  }
  return v != nullptr && v->tag == JfrValue::kRef ? nullptr : v;
}

const JfrValue* JfrFieldOf(const JfrValue& value, const JfrMetadata& metadata,
                           std::string_view name) {
  if (value.tag != JfrValue::kStruct) return nullptr;
  const int i = metadata.types[value.type].FieldIndex(name);
  return i < 0 ? nullptr : &value.items[static_cast<size_t>(i)];
}

std::string JfrText(const JfrValue& value, const JfrMetadata& metadata, const JfrPools& pools) {
  const JfrValue* v = JfrDeref(value, pools);
  for (int depth = 0; v != nullptr && depth < 4; ++depth) {
    if (v->tag == JfrValue::kString) return v->s;
    if (v->tag != JfrValue::kStruct) return "";
    const int field = metadata.types[v->type].text_field;  // name, string or description
    const JfrValue* next = field < 0 ? nullptr : &v->items[static_cast<size_t>(field)];
    if (next == nullptr && v->items.size() == 1) next = &v->items[0];
    if (next == nullptr) return "";
    v = JfrDeref(*next, pools);
  }
  return "";
}

}  // namespace proftools
