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

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_SATURATING_H_
