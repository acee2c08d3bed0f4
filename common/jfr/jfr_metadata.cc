#include "common/jfr/jfr_metadata.h"

#include <utility>

#include "common/jfr/jfr_input.h"

namespace proftools {
namespace {

struct Element {
  size_t name = 0;  // string indexes
  std::vector<std::pair<size_t, size_t>> attributes;
  std::vector<size_t> children;  // element indexes
  uint64_t byte = 0;
};

class ElementTree {
 public:
  ElementTree(JfrInput* in) : in_(*in) {}

  void Read() {
    const uint64_t count = in_.Count(in_.remaining(), "a string table");
    strings_.resize(count);
    JfrString s;
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t at = in_.position();
      in_.ReadString(&s);
      if (s.tag == JfrStringTag::kPoolRef) {
        in_.FailAt(at, "a constant-pool string in the metadata's string table");
      }
      strings_[i] = std::move(s.text);
    }
    // Elements nest: the open ones and the children each still waits for are kept here, not on
    // the call stack, so that no depth of nesting in the input recurses.
    std::vector<std::pair<size_t, uint64_t>> open;  // element, children left
    ReadElement();
    open.emplace_back(0, Pending());
    while (!open.empty()) {
      if (open.back().second == 0) {
        open.pop_back();
        continue;
      }
      --open.back().second;
      const size_t parent = open.back().first;
      const size_t child = ReadElement();
      elements_[parent].children.push_back(child);
      open.emplace_back(child, Pending());
    }
  }

  const Element& element(size_t i) const { return elements_[i]; }
  const std::string& Name(const Element& e) const { return strings_[e.name]; }
  const std::string* Attribute(const Element& e, const char* key) const {
    for (const auto& [k, v] : e.attributes) {
      if (strings_[k] == key) return &strings_[v];
    }
    return nullptr;
  }
  std::vector<size_t> Children(const Element& e, const char* name) const {
    std::vector<size_t> out;
    for (size_t c : e.children) {
      if (strings_[elements_[c].name] == name) out.push_back(c);
    }
    return out;
  }

 private:
  size_t String() {
    const uint64_t at = in_.position();
    const uint64_t i = in_.Varint();
    if (i >= strings_.size()) {
      in_.FailAt(
          at, "string " + std::to_string(i) + " of a table of " + std::to_string(strings_.size()));
    }
    return static_cast<size_t>(i);
  }

  size_t ReadElement() {
    Element e;
    e.byte = in_.position();
    e.name = String();
    const uint64_t attributes = in_.Count(in_.remaining() / 2, "an attribute count");
    for (uint64_t i = 0; i < attributes; ++i) {
      const size_t key = String();
      e.attributes.emplace_back(key, String());
    }
    pending_ = in_.Count(in_.remaining(), "a count of child elements");
    elements_.push_back(std::move(e));
    return elements_.size() - 1;
  }
  uint64_t Pending() const { return pending_; }

  JfrInput& in_;
  std::vector<std::string> strings_;
  std::vector<Element> elements_;
  uint64_t pending_ = 0;
};

JfrKind KindOf(const std::string& name) {
  static const std::pair<const char*, JfrKind> kPrimitives[] = {
      {"boolean", JfrKind::kBoolean},
      {"byte", JfrKind::kByte},
      {"char", JfrKind::kChar},
      {"short", JfrKind::kShort},
      {"int", JfrKind::kInt},
      {"long", JfrKind::kLong},
      {"float", JfrKind::kFloat},
      {"double", JfrKind::kDouble},
      {"java.lang.String", JfrKind::kString},
  };
  for (const auto& [n, kind] : kPrimitives) {
    if (name == n) return kind;
  }
  return JfrKind::kStruct;
}

uint64_t Number(const JfrInput& in, const Element& e, const std::string* text, const char* what) {
  if (text == nullptr || text->empty() || text->size() > 19) {
    in.FailAt(e.byte, std::string("metadata: ") + what + " missing or not a number");
  }
  uint64_t value = 0;
  for (char c : *text) {
    if (c < '0' || c > '9') in.FailAt(e.byte, std::string("metadata: ") + what + " not a number");
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

}  // namespace

int JfrType::FieldIndex(std::string_view field) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field) return static_cast<int>(i);
  }
  return -1;
}

const JfrType* JfrMetadata::Find(uint64_t id) const {
  const auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : &types[it->second];
}

std::shared_ptr<const JfrMetadata> ReadJfrMetadata(const JfrBytes& file, const std::string& name,
                                                   const JfrChunk& chunk,
                                                   std::shared_ptr<const JfrMetadata> previous) {
  JfrInput in = JfrInput::Event(file, &name, chunk.metadata, chunk.end, "the metadata event");
  const uint64_t at = in.position();
  if (in.Varint() != 0) in.FailAt(at, "the chunk's metadata offset points at no metadata event");
  in.Varint();  // start time
  in.Varint();  // duration
  const uint64_t id = in.Varint();
  if (previous != nullptr && previous->id == id) return previous;
  auto made = std::make_shared<JfrMetadata>();
  JfrMetadata& result = *made;
  result.id = id;
  ElementTree tree(&in);
  tree.Read();
  const Element& root = tree.element(0);
  const std::vector<size_t> metadata = tree.Children(root, "metadata");
  if (metadata.size() != 1) in.FailAt(root.byte, "metadata: no single `metadata` element");
  const std::vector<size_t> classes = tree.Children(tree.element(metadata[0]), "class");
  result.types.reserve(classes.size());
  for (size_t c : classes) {
    const Element& e = tree.element(c);
    JfrType type;
    type.id = Number(in, e, tree.Attribute(e, "id"), "a class's id");
    const std::string* type_name = tree.Attribute(e, "name");
    if (type_name == nullptr) in.FailAt(e.byte, "metadata: a class without a name");
    type.name = *type_name;
    if (const std::string* super = tree.Attribute(e, "superType")) type.super_type = *super;
    for (size_t f : tree.Children(e, "field")) {
      const Element& fe = tree.element(f);
      JfrField field;
      const std::string* field_name = tree.Attribute(fe, "name");
      if (field_name == nullptr) in.FailAt(fe.byte, "metadata: a field without a name");
      field.name = *field_name;
      field.type_id = Number(in, fe, tree.Attribute(fe, "class"), "a field's class");
      const std::string* pooled = tree.Attribute(fe, "constantPool");
      field.pooled = pooled != nullptr && *pooled == "true";
      if (const std::string* dimension = tree.Attribute(fe, "dimension")) {
        const uint64_t d = Number(in, fe, dimension, "a field's dimension");
        if (d > 1)
          in.FailAt(fe.byte,
                    "metadata: a field of dimension " + *dimension + " (0 or 1 are JFR's)");
        field.array = d == 1;
      }
      type.fields.push_back(std::move(field));
    }
    type.kind = type.fields.empty() ? KindOf(type.name) : JfrKind::kStruct;
    if (!result.by_id.emplace(type.id, result.types.size()).second) {
      in.FailAt(e.byte, "metadata: class id " + std::to_string(type.id) + " defined twice");
    }
    result.types.push_back(std::move(type));
  }
  for (size_t i = 0; i < result.types.size(); ++i) {
    for (JfrField& field : result.types[i].fields) {
      const auto it = result.by_id.find(field.type_id);
      if (it == result.by_id.end()) {
        in.FailAt(tree.element(classes[i]).byte,
                  "metadata: " + result.types[i].name + "." + field.name + " is of class " +
                      std::to_string(field.type_id) + ", which is not defined");
      }
      field.type = it->second;
    }
  }
  for (JfrType& type : result.types) {
    if (type.kind != JfrKind::kStruct) continue;
    for (const char* name : {"name", "string", "description"}) {
      if (type.text_field < 0) type.text_field = type.FieldIndex(name);
    }
    type.flat = true;
    for (const JfrField& field : type.fields) {
      const JfrKind kind = result.types[field.type].kind;
      type.flat = type.flat && !field.array &&
                  (field.pooled || (kind != JfrKind::kStruct && kind != JfrKind::kString));
    }
  }
  // The least fixpoint: a type that contains itself is never "empty" (its nesting fails anyway).
  for (bool changed = true; changed;) {
    changed = false;
    for (JfrType& type : result.types) {
      if (type.can_be_empty || type.kind != JfrKind::kStruct) continue;
      bool empty = true;
      for (const JfrField& field : type.fields) {
        empty = empty && !field.array && !field.pooled && result.types[field.type].can_be_empty;
      }
      if (empty) type.can_be_empty = changed = true;
    }
  }
  return made;
}

}  // namespace proftools
