#include "common/base/text_syntax.h"

#include <charconv>
#include <cstdio>

#include "common/base/decimal.h"

namespace proftools {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}

bool IsBareByte(unsigned char c) {
  return c >= 0x21 && c <= 0x7e && c != '"' && c != '\\';
}

// Byte classes for the tokenizer's inner loop: one table lookup per byte.
enum ByteClass : uint8_t { kBareByte, kBlankByte, kQuoteByte, kOtherByte };

struct ByteClasses {
  ByteClass of[256];
  constexpr ByteClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      const bool bare = c >= 0x21 && c <= 0x7e && c != '"' && c != '\\';
      of[c] = c == ' ' || c == '\t' ? kBlankByte
              : c == '"'            ? kQuoteByte
              : bare                ? kBareByte
                                    : kOtherByte;
    }
  }
};
constexpr ByteClasses kByteClasses;

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string ByteName(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

std::string At(size_t index) {
  return "column " + std::to_string(index + 1) + ": ";
}

}  // namespace

bool ScanQuoted(std::string_view s, size_t* pos, std::string* out, std::string* error) {
  const size_t open = *pos;
  size_t i = open + 1;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      *pos = i + 1;
      return true;
    }
    if (c == '\\') {
      if (i + 1 >= s.size()) break;
      const char e = s[i + 1];
      char decoded;
      size_t length = 2;
      switch (e) {
        case '"':
          decoded = '"';
          break;
        case '\\':
          decoded = '\\';
          break;
        case 'n':
          decoded = '\n';
          break;
        case 't':
          decoded = '\t';
          break;
        case 'r':
          decoded = '\r';
          break;
        case 'x': {
          const int high = i + 2 < s.size() ? HexDigitValue(s[i + 2]) : -1;
          const int low = i + 3 < s.size() ? HexDigitValue(s[i + 3]) : -1;
          if (high < 0 || low < 0) {
            *error = At(i) + "\\x must be followed by two hex digits";
            return false;
          }
          decoded = static_cast<char>(high * 16 + low);
          length = 4;
          break;
        }
        default:
          *error = At(i) + "invalid escape \\" +
                   (IsBareByte(static_cast<unsigned char>(e)) ? std::string(1, e) : ByteName(e)) +
                   " (valid: \\\" \\\\ \\n \\t \\r \\xHH)";
          return false;
      }
      if (out) out->push_back(decoded);
      i += length;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      *error = At(i) + "control byte " + ByteName(c) + " inside quotes must be escaped (\\x" +
               ByteName(c).substr(2) + ")";
      return false;
    }
    if (out) out->push_back(static_cast<char>(c));
    ++i;
  }
  *error = At(open) + "quoted string is not closed (missing \")";
  return false;
}

size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) -> unsigned {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  auto continuation = [&](size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
  const unsigned c0 = byte(0);
  const unsigned c1 = byte(1);
  if (c0 >= 0xC2 && c0 <= 0xDF) return continuation(1) ? 2 : 0;
  if (c0 >= 0xE0 && c0 <= 0xEF) {
    const bool first_ok = c0 == 0xE0   ? (c1 >= 0xA0 && c1 <= 0xBF)
                          : c0 == 0xED ? (c1 >= 0x80 && c1 <= 0x9F)
                                       : continuation(1);
    return first_ok && continuation(2) ? 3 : 0;
  }
  if (c0 >= 0xF0 && c0 <= 0xF4) {
    const bool first_ok = c0 == 0xF0   ? (c1 >= 0x90 && c1 <= 0xBF)
                          : c0 == 0xF4 ? (c1 >= 0x80 && c1 <= 0x8F)
                                       : continuation(1);
    return first_ok && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

namespace {

bool DecodeBare(std::string_view token, std::string* out, std::string* error) {
  if (token.empty()) {
    *error = "empty token";
    return false;
  }
  if (token[0] == '#') {
    *error = "a bare string may not start with '#' (quote it)";
    return false;
  }
  for (size_t i = 0; i < token.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c == '"') {
      *error = "'\"' inside a bare string (quote the whole string and escape it as \\\")";
      return false;
    }
    if (!IsBareByte(c)) {
      *error = "byte " + ByteName(c) + " in a bare string (quote the string)";
      return false;
    }
  }
  out->assign(token.data(), token.size());
  return true;
}

bool ParseDigits(std::string_view text, uint64_t limit, uint64_t* out) {
  if (text.empty() || text.size() > 20) return false;
  if (text.size() > 1 && text[0] == '0') return false;
  // The first 18 digits cannot overflow, nor exceed either limit: no checks but the digit's.
  // The 19th and 20th (every nanosecond time since 2001 has 19) are checked for overflow, and
  // the value against the limit once (a division a digit was a third of a scan of times).
  uint64_t value = 0;
  const size_t unchecked = text.size() < 18 ? text.size() : 18;
  for (size_t i = 0; i < unchecked; ++i) {
    const unsigned digit = static_cast<unsigned char>(text[i]) - '0';
    if (digit > 9) return false;
    value = value * 10 + digit;
  }
  for (size_t i = unchecked; i < text.size(); ++i) {
    const unsigned digit = static_cast<unsigned char>(text[i]) - '0';
    if (digit > 9) return false;
    if (__builtin_mul_overflow(value, uint64_t{10}, &value) ||
        __builtin_add_overflow(value, uint64_t{digit}, &value)) {
      return false;
    }
  }
  if (value > limit) return false;
  *out = value;
  return true;
}

}  // namespace

bool Tokenize(std::string_view line, std::vector<std::string_view>* tokens, std::string* error) {
  tokens->clear();
  size_t i = 0;
  const size_t n = line.size();
  while (true) {
    while (i < n && IsBlank(line[i])) ++i;
    if (i >= n || line[i] == '#') break;
    const size_t start = i;
    while (i < n) {
      // Fast path: a run of ordinary bare bytes.
      while (i < n && kByteClasses.of[static_cast<unsigned char>(line[i])] == kBareByte) ++i;
      if (i >= n || IsBlank(line[i])) break;
      const unsigned char c = static_cast<unsigned char>(line[i]);
      if (c == '"') {
        if (!ScanQuoted(line, &i, nullptr, error)) return false;
        // Only a label may continue after a quoted key ("k"=v); anything else needs a blank.
        if (i < n && !IsBlank(line[i]) && line[i] != '=') {
          *error = At(i) + "a blank must follow the closing quote";
          return false;
        }
        continue;
      }
      if (c == '\\') {
        *error = At(i) + "backslash outside quotes (quote the string and write \\\\)";
        return false;
      }
      if (!IsBareByte(c)) {
        *error = At(i) + "byte " + ByteName(c) + " must be written inside quotes";
        return false;
      }
      ++i;
    }
    tokens->push_back(line.substr(start, i - start));
  }
  return true;
}

bool DecodeString(std::string_view token, std::string* out, std::string* error) {
  out->clear();
  if (!token.empty() && token[0] == '"') {
    size_t pos = 0;
    if (!ScanQuoted(token, &pos, out, error)) return false;
    if (pos != token.size()) {
      *error = "unexpected text after the closing quote";
      return false;
    }
    return true;
  }
  return DecodeBare(token, out, error);
}

bool CanBeBare(std::string_view value) {
  if (value.empty() || value[0] == '#') return false;
  for (char c : value) {
    if (!IsBareByte(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

void AppendQuoted(std::string* out, std::string_view value) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t i = 0;
  while (i < value.size()) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(value, i);
      if (length > 0) {
        out->append(value.data() + i, length);
        i += length;
        continue;
      }
    }
    ++i;
    switch (c) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      default:
        break;
    }
    if (c < 0x20 || c >= 0x7f) {
      out->append("\\x");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

void AppendString(std::string* out, std::string_view value) {
  if (CanBeBare(value)) {
    out->append(value.data(), value.size());
  } else {
    AppendQuoted(out, value);
  }
}

bool ParseId(std::string_view text, uint64_t* out) {
  return ParseDigits(text, UINT64_MAX, out);
}

bool ParseInt(std::string_view text, int64_t* out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (negative && text == "0") return false;  // "-0" is not a spelling of 0
  uint64_t magnitude;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (!ParseDigits(text, limit, &magnitude)) return false;
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

bool ParseHexDigits(std::string_view text, uint64_t* out) {
  if (text.substr(0, 2) == "0x") text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return false;
  uint64_t value = 0;
  for (char c : text) {
    const int digit = HexDigitValue(c);
    if (digit < 0) return false;
    value = value << 4 | static_cast<uint64_t>(digit);
  }
  *out = value;
  return true;
}

bool ParseHex(std::string_view text, uint64_t* out) {
  if (text.size() < 3 || text[0] != '0' || text[1] != 'x') return false;
  text.remove_prefix(2);
  uint64_t value = 0;
  size_t significant = 0;
  for (char c : text) {
    const int digit = HexDigitValue(c);
    if (digit < 0) return false;
    if (value != 0 || digit != 0) ++significant;
    if (significant > 16) return false;
    value = value * 16 + static_cast<uint64_t>(digit);
  }
  *out = value;
  return true;
}

// append(pointer, length), not append(first, last): libstdc++ sends the iterator form through
// the general replace(), which costs a tenth of pprof2prof's time on a large profile.
void AppendUint(std::string* out, uint64_t value) {
  char buf[kMaxDecimalDigits];
  out->append(buf, static_cast<size_t>(WriteDecimal(buf, value) - buf));
}

void AppendInt(std::string* out, int64_t value) {
  char buf[kMaxDecimalDigits + 1];
  char* p = buf;
  if (value < 0) *p++ = '-';
  // The magnitude in unsigned arithmetic, where that of INT64_MIN does not overflow.
  const uint64_t magnitude =
      value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  out->append(buf, static_cast<size_t>(WriteDecimal(p, magnitude) - buf));
}

void AppendHex(std::string* out, uint64_t value) {
  char buf[24];
  const auto result = std::to_chars(buf, buf + sizeof buf, value, 16);
  out->append("0x");
  out->append(buf, static_cast<size_t>(result.ptr - buf));
}

std::string Printable(std::string_view value, size_t max) {
  const bool cut = value.size() > max;
  if (cut) value = value.substr(0, max);
  std::string out = "'";
  for (size_t i = 0; i < value.size();) {
    if (const size_t n = Utf8SequenceLength(value, i); n != 0) {
      out.append(value.substr(i, n));
      i += n;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(value[i++]);
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += "'";
  if (cut) out += "...";
  return out;
}

}  // namespace proftools
