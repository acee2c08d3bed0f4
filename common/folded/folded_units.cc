#include "common/folded/folded_units.h"

#include <cstring>

#include "common/base/decimal.h"
#include "common/base/units.h"

namespace proftools {
namespace {

// The spellings emitted, finest first. Only time has decimal steps: a decimal fraction of a
// memory unit (a power of 1024) is in general no whole number of bytes, so it is rounded.
constexpr const char* kTimeUnits[] = {"nanoseconds", "microseconds", "milliseconds", "seconds"};

}  // namespace

FoldedUnit UnitForDecimals(const std::string& unit, int decimals) {
  FoldedUnit out;
  out.unit = unit;
  if (decimals == 0) return out;
  const int64_t scale = PowerOfTen(decimals);
  const KnownUnit known = LookUpUnit(unit);
  if (known.dimension != nullptr && std::strcmp(known.dimension, "time") == 0) {
    // The coarsest finer unit first: the fewest digits added.
    for (int i = 3; i >= 0; --i) {
      const int64_t factor = LookUpUnit(kTimeUnits[i]).factor;
      if (factor > known.factor || known.factor % factor != 0) continue;
      const int64_t ratio = known.factor / factor;
      if (ratio % scale != 0) continue;
      out.unit = kTimeUnits[i];
      out.multiply = ratio / scale;
      if (out.unit != unit) {
        out.note = "values with " + std::to_string(decimals) +
                   (decimals == 1 ? " decimal place of " : " decimal places of ") + unit +
                   " are kept exactly as " + out.unit;
      }
      return out;
    }
  }
  out.divide = scale;
  out.note = "values with decimal places (up to " + std::to_string(decimals) +
             ") are rounded to whole " + unit + ": " +
             (known.dimension == nullptr
                  ? "proftools knows no finer unit than " + unit
                  : "there is no finer unit of " + unit + " that keeps them exact") +
             " (--type NAME/UNIT names the unit)";
  return out;
}

}  // namespace proftools
