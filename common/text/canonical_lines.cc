#include "common/text/canonical_lines.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace proftools {
namespace {

// At most 19 digits cannot overflow a uint64_t: no checks per digit (ReadInt checks int64_t's
// range once). Longer numbers go the general way. 19, not 18: a time in nanoseconds since 1970
// has 19 digits, and with 18 every sample of such a profile went the general way.
constexpr size_t kMaxDigits = 19;

constexpr uint64_t kHighBits = 0x8080808080808080;

// 8 bytes from `p`, the first in the low byte whatever the machine's byte order.
uint64_t LoadLittleEndian(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  return word;
}

// The bytes at p[0, size) (up to 8) as LoadLittleEndian; missing bytes are 0, not digits.
uint64_t LoadPartial(const char* p, size_t size) {
  if (size >= 8) return LoadLittleEndian(p);
  char bytes[8] = {};
  std::memcpy(bytes, p, size);
  return LoadLittleEndian(bytes);
}

// Bit k set when byte k of `word` is not an ASCII digit. Per byte, without carries between
// bytes: the low 7 bits plus 0x50 reach 0x80 from '0' up, plus 0x46 from '9' + 1 up.
uint64_t NonDigitBits(uint64_t word) {
  const uint64_t low7 = word & ~kHighBits;
  const uint64_t digits = (low7 + 0x5050505050505050) & ~(low7 + 0x4646464646464646) & ~word;
  // Gathers the high bit of each byte into the top byte (no two products overlap), then down.
  return (((~digits & kHighBits) >> 7) * 0x0102040810204080) >> 56;
}

// The value of 8 digits (bytes 0..9, the first most significant, in the low byte): pairs, then
// quads, then the whole, in three multiplications instead of eight dependent steps.
uint64_t EightDigitsValue(uint64_t digits) {
  digits = (digits * 10) + (digits >> 8);
  return ((digits & 0x000000FF000000FF) * (100 + (1000000ULL << 32)) +
          ((digits >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32))) >>
         32;
}

// The value of the number spelled by the digits [begin, end) (known to be digits), false when
// it is empty, led by '0' or longer than kMaxDigits. `line` is where 8 bytes may be read from.
// Always inline: it is the inner loop of ParseCanonicalStack, and with a second caller GCC
// stopped inlining it (ParseCanonicalStack's share of a profile went from 29% to 34%).
[[gnu::always_inline]] inline bool NumberValue(const char* line, const char* begin, const char* end,
                                               uint64_t* out) {
  const size_t size = static_cast<size_t>(end - begin);
  if (size == 0 || size > kMaxDigits || *begin == '0') return false;
  if (size <= 8 && end - line >= 8) {
    // The 8 bytes ending with the number, those before it masked to leading zeros. `& 0x0F`
    // maps a digit to its value without borrowing from the next byte.
    const uint64_t word = LoadLittleEndian(end - 8) & 0x0F0F0F0F0F0F0F0F;
    *out = EightDigitsValue(word & (~uint64_t{0} << (8 * (8 - size))));
    return true;
  }
  const size_t head = size % 8;  // the digits before whole groups of 8
  if (static_cast<size_t>(begin - line) + head >= 8) {
    // 9 to 19 digits (a time in nanoseconds): the head as above, then 8 digits at a time.
    uint64_t value = 0;
    const char* p = begin + head;
    if (head != 0) {
      const uint64_t word = LoadLittleEndian(p - 8) & 0x0F0F0F0F0F0F0F0F;
      value = EightDigitsValue(word & (~uint64_t{0} << (8 * (8 - head))));
    }
    for (; p != end; p += 8) {
      value = value * 100000000 + EightDigitsValue(LoadLittleEndian(p) & 0x0F0F0F0F0F0F0F0F);
    }
    *out = value;
    return true;
  }
  uint64_t value = 0;
  for (const char* p = begin; p != end; ++p) value = value * 10 + static_cast<uint64_t>(*p - '0');
  *out = value;
  return true;
}

// Reads the number at *p, which must end at a space or at `end`, and moves *p past it.
// Always inline, as NumberValue: a call a field (6 million on gen-1M's samples) cost 6% of
// prof-text --top on it.
[[gnu::always_inline]] inline bool ReadNumber(const char* line, const char** p, const char* end,
                                              uint64_t* out) {
  // The number's end: the first non-digit of 8 bytes at a time (a byte at a time mispredicted
  // the end of every number).
  const char* at = *p;
  while (true) {
    const uint64_t non_digits = NonDigitBits(LoadPartial(at, static_cast<size_t>(end - at)));
    if (non_digits != 0) {
      at += __builtin_ctzll(non_digits);
      break;
    }
    at += 8;
  }
  if ((at != end && *at != ' ') || !NumberValue(line, *p, at, out)) return false;
  *p = at;
  return true;
}

// Reads a decimal int64 as ParseInt spells it: "0", or an optional '-' and digits not led by
// '0' (at most kMaxDigits of them, within int64_t's range).
bool ReadInt(const char* line, const char** p, const char* end, int64_t* out) {
  const char* at = *p;
  if (at != end && *at == '0' && (at + 1 == end || at[1] == ' ')) {
    *out = 0;
    *p = at + 1;
    return true;
  }
  const bool negative = at != end && *at == '-';
  if (negative) ++at;
  uint64_t magnitude;
  if (!ReadNumber(line, &at, end, &magnitude)) return false;
  // As ParseInt: up to 2^63 - 1, or 2^63 after '-'.
  if (magnitude > (negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1)) return false;
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  *p = at;
  return true;
}

// Reads '-' (unknown) or an int as ReadInt.
bool ReadOptionalInt(const char* line, const char** p, const char* end,
                     std::optional<int64_t>* out) {
  const char* at = *p;
  if (at != end && *at == '-' && (at + 1 == end || at[1] == ' ')) {
    out->reset();
    *p = at + 1;
    return true;
  }
  int64_t value;
  if (!ReadInt(line, p, end, &value)) return false;
  *out = value;
  return true;
}

// Consumes the single space before the next field.
bool ReadSpace(const char** p, const char* end) {
  if (*p == end || **p != ' ') return false;
  ++*p;
  return true;
}

// Strips `keyword` and the space after it; false when the line does not start so.
bool ReadKeyword(std::string_view line, std::string_view keyword, const char** p) {
  if (line.size() <= keyword.size() || line.compare(0, keyword.size(), keyword) != 0 ||
      line[keyword.size()] != ' ') {
    return false;
  }
  *p = line.data() + keyword.size() + 1;
  return true;
}

// Reads `text` as numbers each after exactly one space ("12 3 45"), appending them to *out.
//
// Ids in stacks have a handful of digits, of varying count: reading digit by digit until a
// space mispredicts the end of most numbers, and makes each number wait for the one before.
// Instead the non-digits of 64 bytes at a time are found as one bit mask, and each number is
// read from its own 8-byte load, independent of the others.
bool ReadNumbers(const char* line, std::string_view text, std::vector<uint64_t>* out) {
  const char* const s = text.data();
  const size_t size = text.size();
  size_t number_begin = 0;
  for (size_t base = 0; base <= size; base += 64) {
    uint64_t non_digits = 0;
    for (size_t k = 0; k < 64 && base + k < size; k += 8) {
      non_digits |= NonDigitBits(LoadPartial(s + base + k, size - base - k)) << k;
    }
    // The end of the text ends the last number; what lies beyond it does not count.
    if (size - base < 64) {
      non_digits &= (uint64_t{1} << (size - base)) - 1;
      non_digits |= uint64_t{1} << (size - base);
    }
    for (; non_digits != 0; non_digits &= non_digits - 1) {
      const size_t at = base + static_cast<size_t>(__builtin_ctzll(non_digits));
      if (at != size && s[at] != ' ') return false;
      uint64_t value;
      if (!NumberValue(line, s + number_begin, s + at, &value)) return false;
      out->push_back(value);
      number_begin = at + 1;
    }
  }
  return true;
}

// `sample SOURCE STACK TIME DURATION`: the fields every sample line starts with; *p is left
// after DURATION.
bool ReadSampleHead(std::string_view line, const char** p, Sample* s) {
  const char* const l = line.data();
  const char* const end = l + line.size();
  return ReadKeyword(line, "sample", p) && ReadNumber(l, p, end, &s->source_id) &&
         ReadSpace(p, end) && ReadNumber(l, p, end, &s->stack_id) && ReadSpace(p, end) &&
         ReadOptionalInt(l, p, end, &s->time_nanos) && ReadSpace(p, end) &&
         ReadOptionalInt(l, p, end, &s->duration_nanos);
}

}  // namespace

bool ParseCanonicalStack(std::string_view line, Record* r) {
  const char* p;
  if (!ReadKeyword(line, "stack", &p)) return false;
  std::vector<uint64_t>& ids = r->stack.location_ids;
  ids.clear();
  const std::string_view text(p, static_cast<size_t>(line.data() + line.size() - p));
  if (!ReadNumbers(line.data(), text, &ids)) return false;
  // The first number is the stack's id, the rest its locations.
  r->kind = RecordKind::kStack;
  r->stack.id = ids.front();
  ids.erase(ids.begin());
  return true;
}

bool ParseCanonicalSample(std::string_view line, size_t value_count, Record* r,
                          std::string_view* labels) {
  const char* p;
  const char* const l = line.data();
  const char* const end = l + line.size();
  Sample& s = r->sample;
  if (!ReadSampleHead(line, &p, &s)) return false;
  s.values.resize(value_count);
  for (size_t k = 0; k < value_count; ++k) {
    if (!ReadSpace(&p, end) || !ReadInt(l, &p, end, &s.values[k])) return false;
  }
  *labels = std::string_view();
  if (p != end) {
    if (!ReadSpace(&p, end) || p == end) return false;
    *labels = std::string_view(p, static_cast<size_t>(end - p));
  }
  r->kind = RecordKind::kSample;
  return true;
}

bool ParseCanonicalSampleTimes(std::string_view line, uint64_t* source,
                               std::optional<int64_t>* time, std::optional<int64_t>* duration) {
  const char* p;
  Sample head;
  if (!ReadSampleHead(line, &p, &head) || (p != line.data() + line.size() && *p != ' ')) {
    return false;
  }
  *source = head.source_id;
  *time = head.time_nanos;
  *duration = head.duration_nanos;
  return true;
}

}  // namespace proftools
