// Numbers with units as a user types them in options: durations ("1.5s", "250ms"), percentages
// ("12.5%"), sizes and counts ("64KiB", "100"). Parsed exactly (decimal digits, no floating
// point), so that "0.1s" is 100000000 nanoseconds and not one less.
#ifndef PROFTOOLS_COMMON_BASE_QUANTITY_H_
#define PROFTOOLS_COMMON_BASE_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace proftools {

// What a unit measures. Values of one kind convert into each other (bytes, nanoseconds).
enum class UnitKind { kNone, kBytes, kTime };

// A decimal number: digits × 10^-scale (scale = digits after the point), with a sign.
struct Decimal {
  bool negative = false;
  unsigned __int128 digits = 0;
  int scale = 0;
};

// Parses "12", "-3", "1.25" (no exponent, at most 30 significant digits). The whole text must be
// the number.
bool ParseDecimal(std::string_view text, Decimal* out);

// A number with an optional unit suffix, converted to the unit kind's base (bytes, nanoseconds)
// and rounded to the nearest integer. Units are those of common/base/units.h (B, KB or KiB, MB
// or MiB, ...: powers of 1024 as pprof counts them; ns, us, ms, s), m (minutes) and h, and the
// bare size letters k/K, M, G, T (1G = 1GiB, as --max-input-size takes them).
// Returns false with *error when the text is not such a number or does not fit in int64.
struct Quantity {
  int64_t value = 0;
  UnitKind kind = UnitKind::kNone;  // kNone: the number had no unit
};
bool ParseQuantity(std::string_view text, Quantity* out, std::string* error);

// A non-negative duration with a time unit, in nanoseconds.
bool ParseDuration(std::string_view text, int64_t* nanos, std::string* error);

// The unit kind and the factor to the kind's base of a label's or value type's unit ("bytes",
// "nanoseconds", "ms", ...): kNone with factor 1 when the unit is not one of these.
UnitKind UnitKindOf(std::string_view unit, int64_t* factor);

// `value` × numerator / denominator, rounded half up, held at the int64 limits.
int64_t ScaleRounded(int64_t value, int64_t numerator, int64_t denominator);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_QUANTITY_H_
