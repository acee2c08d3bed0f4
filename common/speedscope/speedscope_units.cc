#include "common/speedscope/speedscope_units.h"

#include <cstring>

#include "common/base/units.h"

namespace proftools {
namespace {

constexpr SpeedscopeUnit kUnits[] = {
    {"none", "weight", "count", 1, false},
    {"nanoseconds", "time", "nanoseconds", 1, true},
    {"microseconds", "time", "nanoseconds", 1000, true},
    {"milliseconds", "time", "nanoseconds", 1000000, true},
    {"seconds", "time", "nanoseconds", 1000000000, true},
    {"bytes", "space", "bytes", 1, false},
};

}  // namespace

const SpeedscopeUnit* FindSpeedscopeUnit(std::string_view name) {
  for (const SpeedscopeUnit& unit : kUnits) {
    if (name == unit.name) return &unit;
  }
  return nullptr;
}

WrittenUnit SpeedscopeUnitFor(const std::string& unit) {
  const KnownUnit known = LookUpUnit(unit);
  if (known.dimension != nullptr && std::strcmp(known.dimension, "time") == 0) {
    // base/units counts time in nanoseconds.
    switch (known.factor) {
      case 1:
        return {"nanoseconds", 1};
      case 1000:
        return {"microseconds", 1};
      case 1000000:
        return {"milliseconds", 1};
      case 1000000000:
        return {"seconds", 1};
      default:
        if (known.factor % 1000000000 == 0) return {"seconds", known.factor / 1000000000};
        return {"nanoseconds", known.factor};
    }
  }
  if (known.dimension != nullptr && std::strcmp(known.dimension, "memory") == 0) {
    return {"bytes", known.factor};
  }
  return {"none", 1};
}

}  // namespace proftools
