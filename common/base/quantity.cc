#include "common/base/quantity.h"
#include "common/base/text_syntax.h"

#include <cstdint>
#include <cstring>

#include "common/base/units.h"

namespace proftools {
namespace {

// Short time units for option values, beside the spellings units.h knows (a value type's unit
// "m" is not taken for minutes: it could be metres).
struct ShortUnit {
  const char* name;
  int64_t factor;
};
constexpr ShortUnit kShortTimeUnits[] = {
    {"m", int64_t{60} * 1000 * 1000 * 1000},
    {"h", int64_t{3600} * 1000 * 1000 * 1000},
};
// Bare size letters, as --max-input-size takes them (1G = 1GiB).
constexpr ShortUnit kShortSizeUnits[] = {
    {"k", 1024},
    {"K", 1024},
    {"M", 1024 * 1024},
    {"G", int64_t{1024} * 1024 * 1024},
    {"T", int64_t{1024} * 1024 * 1024 * 1024},
};

UnitKind KindOf(const KnownUnit& unit) {
  if (unit.dimension == nullptr) return UnitKind::kNone;
  if (std::strcmp(unit.dimension, "time") == 0) return UnitKind::kTime;
  if (std::strcmp(unit.dimension, "memory") == 0) return UnitKind::kBytes;
  return UnitKind::kNone;
}

// floor(a / b) for b > 0.
__int128 FloorDivide(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}

int64_t Clamp(__int128 v) {
  if (v > INT64_MAX) return INT64_MAX;
  if (v < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(v);
}

}  // namespace

bool ParseDecimal(std::string_view text, Decimal* out) {
  *out = Decimal{};
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    out->negative = text[i] == '-';
    ++i;
  }
  size_t digits = 0;
  bool point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (++digits > 30) return false;
    out->digits = out->digits * 10 + static_cast<unsigned>(c - '0');
    if (point) ++out->scale;
  }
  return digits > 0;
}

bool ParseQuantity(std::string_view text, Quantity* out, std::string* error) {
  size_t number_end = 0;
  while (number_end < text.size() &&
         ((text[number_end] >= '0' && text[number_end] <= '9') || text[number_end] == '.' ||
          (number_end == 0 && (text[0] == '-' || text[0] == '+')))) {
    ++number_end;
  }
  Decimal decimal;
  if (!ParseDecimal(text.substr(0, number_end), &decimal)) {
    *error = Printable(text) + " is not a number";
    return false;
  }
  const std::string_view suffix = text.substr(number_end);
  int64_t factor = 1;
  out->kind = UnitKind::kNone;
  if (!suffix.empty()) {
    const KnownUnit unit = LookUpUnit(std::string(suffix));
    out->kind = KindOf(unit);
    factor = unit.factor;
    for (const ShortUnit& time : kShortTimeUnits) {
      if (suffix == time.name) {
        out->kind = UnitKind::kTime;
        factor = time.factor;
      }
    }
    for (const ShortUnit& size : kShortSizeUnits) {
      if (suffix == size.name) {
        out->kind = UnitKind::kBytes;
        factor = size.factor;
      }
    }
    if (out->kind == UnitKind::kNone) {
      *error = Printable(text) + " has an unknown unit " + Printable(suffix) +
               " (B, K or KiB, M or MiB, G or GiB, T or TiB; ns, us, ms, s, m, h)";
      return false;
    }
  }
  if (decimal.scale > 18) {
    *error = Printable(text) + " has more than 18 digits after the point";
    return false;
  }
  __int128 scale = 1;
  for (int k = 0; k < decimal.scale; ++k) scale *= 10;
  // At most 2^63 × 10^18 < 2^123: digits × factor, doubled, fits in 128 bits after this check.
  const unsigned __int128 limit = (static_cast<unsigned __int128>(INT64_MAX) + 1) * scale;
  if (decimal.digits > limit / static_cast<unsigned __int128>(factor)) {
    *error = Printable(text) + " is too large";
    return false;
  }
  const __int128 magnitude =
      FloorDivide(static_cast<__int128>(decimal.digits) * factor * 2 + scale, scale * 2);
  if (magnitude > INT64_MAX) {
    *error = Printable(text) + " is too large";
    return false;
  }
  out->value = static_cast<int64_t>(decimal.negative ? -magnitude : magnitude);
  return true;
}

bool ParseDuration(std::string_view text, int64_t* nanos, std::string* error) {
  Quantity quantity;
  if (!ParseQuantity(text, &quantity, error)) return false;
  if (quantity.kind != UnitKind::kTime) {
    *error = Printable(text) + " is not a duration: give a time unit (ns, us, ms, s, m, h)";
    return false;
  }
  if (quantity.value < 0) {
    *error = Printable(text) + " is negative";
    return false;
  }
  *nanos = quantity.value;
  return true;
}

UnitKind UnitKindOf(std::string_view unit, int64_t* factor) {
  const KnownUnit known = LookUpUnit(std::string(unit));
  const UnitKind kind = KindOf(known);
  *factor = kind == UnitKind::kNone ? 1 : known.factor;
  return kind;
}

int64_t ScaleRounded(int64_t value, int64_t numerator, int64_t denominator) {
  __int128 n = numerator, d = denominator;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  return Clamp(FloorDivide(static_cast<__int128>(value) * n * 2 + d, d * 2));
}

}  // namespace proftools
