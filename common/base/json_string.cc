#include "common/base/json_string.h"

#include "common/base/text_syntax.h"

namespace proftools {

void AppendJsonString(std::string* out, std::string_view text, bool html_safe) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + text.size() + 2);
  out->push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(text, i);
      if (length > 0) {
        out->append(text.data() + i, length);
      } else {
        *out += "\\\\x";  // the visible text \xHH: JSON has no way to carry the byte itself
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
      }
      i += length > 0 ? length : 1;
      continue;
    }
    ++i;
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20 || c == 0x7f || (html_safe && (c == '<' || c == '>' || c == '&'))) {
      *out += "\\u00";
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

}  // namespace proftools
