// Decimal values in folded stacks (async-profiler's and others' milliseconds with a fraction):
// the unit the values are kept in exactly, or, when there is none, how they are rounded.
#ifndef PROFTOOLS_COMMON_FOLDED_FOLDED_UNITS_H_
#define PROFTOOLS_COMMON_FOLDED_FOLDED_UNITS_H_

#include <cstdint>
#include <string>

namespace proftools {

struct FoldedUnit {
  std::string unit;      // of the values emitted
  int64_t multiply = 1;  // a sum in units of 10^-decimals of the given unit, times this,
  int64_t divide = 1;    // divided by this (rounding half up), is a value in `unit`
  std::string note;      // what was done, for a warning; empty when nothing was
};

// For sums with `decimals` places of `unit`: the coarsest finer unit of the same dimension
// (base/units) in which every such value is a whole number (milliseconds with 3 places:
// microseconds), or `unit` itself with the values rounded when there is none (counts, bytes,
// units proftools does not know).
FoldedUnit UnitForDecimals(const std::string& unit, int decimals);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FOLDED_FOLDED_UNITS_H_
