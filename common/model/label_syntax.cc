#include "common/model/label_syntax.h"

#include "common/base/text_syntax.h"

namespace proftools {
namespace {

// True for text that a label reader takes as a number: -?[0-9]+ followed by the end or ':'.
bool StartsLikeNumber(std::string_view value) {
  size_t i = 0;
  if (i < value.size() && value[i] == '-') ++i;
  const size_t digits_start = i;
  while (i < value.size() && value[i] >= '0' && value[i] <= '9') ++i;
  if (i == digits_start) return false;
  return i == value.size() || value[i] == ':';
}

// Decodes a string that is either one quoted part or bare text.
bool DecodePart(std::string_view part, std::string* out, std::string* error) {
  out->clear();
  return DecodeString(part, out, error);
}

}  // namespace

bool DecodeLabel(std::string_view token, Label* out, std::string* error) {
  // The key: one quoted part, or bare bytes up to the first '='.
  size_t equals;
  std::string_view key_part;
  if (!token.empty() && token[0] == '"') {
    size_t pos = 0;
    if (!ScanQuoted(token, &pos, nullptr, error)) return false;
    if (pos >= token.size() || token[pos] != '=') {
      *error = "expected KEY=VALUE: '=' must follow the quoted key";
      return false;
    }
    equals = pos;
  } else {
    equals = token.find('=');
    if (equals == std::string_view::npos) {
      *error = "expected KEY=VALUE, found no '='";
      return false;
    }
    if (equals == 0) {
      *error = "expected KEY=VALUE, the key is missing";
      return false;
    }
  }
  key_part = token.substr(0, equals);
  if (!DecodePart(key_part, &out->key, error)) {
    *error = "bad label key: " + *error;
    return false;
  }

  std::string_view value = token.substr(equals + 1);
  out->str.clear();
  out->unit.clear();
  out->num = 0;
  if (value.empty()) {
    *error = "label " + Printable(out->key) + " has no value (write \"\" for an empty string)";
    return false;
  }
  if (value[0] == '"') {
    out->is_num = false;
    if (!DecodePart(value, &out->str, error)) {
      *error = "bad label value: " + *error;
      return false;
    }
    return true;
  }
  if (StartsLikeNumber(value)) {
    out->is_num = true;
    const size_t colon = value.find(':');
    const std::string_view number = value.substr(0, colon);
    if (!ParseInt(number, &out->num)) {
      *error = "bad number " + Printable(number) +
               " in label (a string that looks like a number must be quoted)";
      return false;
    }
    if (colon != std::string_view::npos) {
      const std::string_view unit = value.substr(colon + 1);
      if (unit.empty()) {
        *error = "label unit after ':' is empty";
        return false;
      }
      if (!DecodePart(unit, &out->unit, error)) {
        *error = "bad label unit: " + *error;
        return false;
      }
      // A unit is non-empty (§4.3.5): `k=1:""` would read back as `k=1`, a different label.
      if (out->unit.empty()) {
        *error = "label unit is empty (write the number alone when it has no unit)";
        return false;
      }
    }
    return true;
  }
  out->is_num = false;
  if (!DecodePart(value, &out->str, error)) {
    *error = "bad label value: " + *error;
    return false;
  }
  return true;
}

void AppendLabel(std::string* out, const Label& label) {
  if (CanBeBare(label.key) && label.key.find('=') == std::string::npos) {
    out->append(label.key);
  } else {
    AppendQuoted(out, label.key);
  }
  out->push_back('=');
  if (label.is_num) {
    AppendInt(out, label.num);
    if (!label.unit.empty()) {
      out->push_back(':');
      AppendString(out, label.unit);
    }
  } else if (CanBeBare(label.str) && !StartsLikeNumber(label.str)) {
    out->append(label.str);
  } else {
    AppendQuoted(out, label.str);
  }
}

}  // namespace proftools
