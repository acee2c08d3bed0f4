// Code points written as UTF-8: what every reader of a format that stores text otherwise
// (UTF-16 folded stacks, JFR's char arrays and Latin-1 strings) converts with.
#ifndef PROFTOOLS_COMMON_BASE_UTF8_H_
#define PROFTOOLS_COMMON_BASE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace proftools {

// Appends `code` as UTF-8; a surrogate (U+D800..U+DFFF, not a character on its own) as U+FFFD.
inline void AppendUtf8(uint32_t code, std::string* out) {
  if (code >= 0xd800 && code < 0xe000) code = 0xfffd;
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xc0 | code >> 6));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | code >> 12));
    out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | code >> 18));
    out->push_back(static_cast<char>(0x80 | (code >> 12 & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code >> 6 & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  }
}

// Whether `text` holds U+FFFE or U+FFFF (EF BF BE, EF BF BF) at `at`: valid UTF-8, but no
// characters of XML, so that what writes SVG or HTML shows their bytes escaped.
inline bool IsXmlNoncharacterAt(std::string_view text, size_t at) {
  return at + 2 < text.size() && text[at] == '\xef' && text[at + 1] == '\xbf' &&
         (text[at + 2] == '\xbe' || text[at + 2] == '\xbf');
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_UTF8_H_
