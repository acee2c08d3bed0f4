// Sums of profile values held at the int64 limits: values are any int64, and the sums of a
// hostile input must not be undefined behaviour.
#ifndef PROFTOOLS_COMMON_BASE_SATURATING_H_
#define PROFTOOLS_COMMON_BASE_SATURATING_H_

#include <cstdint>

namespace proftools {

// *sum + value, held at the int64 limits instead of overflowing.
inline void AddSaturating(int64_t* sum, int64_t value) {
  if (__builtin_add_overflow(*sum, value, sum)) *sum = value > 0 ? INT64_MAX : INT64_MIN;
}

// *sum - value, held at the int64 limits instead of overflowing.
inline void SubtractSaturating(int64_t* sum, int64_t value) {
  if (__builtin_sub_overflow(*sum, value, sum)) *sum = value < 0 ? INT64_MAX : INT64_MIN;
}

// *sum + |value|, held at INT64_MAX: the totals reports give percentages of count every sample's
// magnitude, as pprof's do (a live heap or a difference has negative values).
inline void AddMagnitudeSaturating(int64_t* sum, int64_t value) {
  if (value == INT64_MIN) {
    *sum = INT64_MAX;
    return;
  }
  AddSaturating(sum, value < 0 ? -value : value);
}

// *value * factor, held at the int64 limits instead of overflowing; false when it was held.
inline bool MultiplySaturating(int64_t* value, int64_t factor) {
  const bool positive = (*value < 0) == (factor < 0);
  if (!__builtin_mul_overflow(*value, factor, value)) return true;
  *value = positive ? INT64_MAX : INT64_MIN;
  return false;
}

// |value| as an unsigned number, exact for INT64_MIN too: for ordering by magnitude.
inline uint64_t Magnitude(int64_t value) {
  return value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
}

// |value|, held at INT64_MAX (for INT64_MIN).
inline int64_t SaturatingAbs(int64_t value) {
  return value < 0 ? (value == INT64_MIN ? INT64_MAX : -value) : value;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_SATURATING_H_
