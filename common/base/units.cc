#include "common/base/units.h"

#include <cstring>

namespace proftools {
namespace {

struct UnitName {
  const char* name;
  KnownUnit unit;
};

constexpr int64_t kKiB = 1024;

// Spellings pprof's own unit handling accepts for the same sizes.
const UnitName kUnits[] = {
    {"nanoseconds", {"time", 1}},
    {"nanosecond", {"time", 1}},
    {"ns", {"time", 1}},
    {"microseconds", {"time", 1000}},
    {"microsecond", {"time", 1000}},
    {"us", {"time", 1000}},
    {"milliseconds", {"time", 1000000}},
    {"millisecond", {"time", 1000000}},
    {"ms", {"time", 1000000}},
    {"seconds", {"time", 1000000000}},
    {"second", {"time", 1000000000}},
    {"s", {"time", 1000000000}},
    {"minutes", {"time", 60 * int64_t{1000000000}}},
    {"minute", {"time", 60 * int64_t{1000000000}}},
    {"hours", {"time", 3600 * int64_t{1000000000}}},
    {"hour", {"time", 3600 * int64_t{1000000000}}},
    {"bytes", {"memory", 1}},
    {"byte", {"memory", 1}},
    {"B", {"memory", 1}},
    {"kilobytes", {"memory", kKiB}},
    {"kilobyte", {"memory", kKiB}},
    {"KB", {"memory", kKiB}},
    {"KiB", {"memory", kKiB}},
    {"megabytes", {"memory", kKiB* kKiB}},
    {"megabyte", {"memory", kKiB* kKiB}},
    {"MB", {"memory", kKiB* kKiB}},
    {"MiB", {"memory", kKiB* kKiB}},
    {"gigabytes", {"memory", kKiB* kKiB* kKiB}},
    {"gigabyte", {"memory", kKiB* kKiB* kKiB}},
    {"GB", {"memory", kKiB* kKiB* kKiB}},
    {"GiB", {"memory", kKiB* kKiB* kKiB}},
    {"terabytes", {"memory", kKiB* kKiB* kKiB* kKiB}},
    {"terabyte", {"memory", kKiB* kKiB* kKiB* kKiB}},
    {"TB", {"memory", kKiB* kKiB* kKiB* kKiB}},
    {"TiB", {"memory", kKiB* kKiB* kKiB* kKiB}},
    {"count", {"count", 1}},
};

}  // namespace

KnownUnit LookUpUnit(const std::string& unit) {
  for (const UnitName& known : kUnits) {
    if (unit == known.name) return known.unit;
  }
  return {};
}

bool UnitsConvertible(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const KnownUnit ua = LookUpUnit(a);
  const KnownUnit ub = LookUpUnit(b);
  return ua.dimension != nullptr && ub.dimension != nullptr &&
         std::strcmp(ua.dimension, ub.dimension) == 0;
}

const std::string& FinerUnit(const std::string& a, const std::string& b) {
  if (a == b) return a;
  const int64_t fa = LookUpUnit(a).factor;
  const int64_t fb = LookUpUnit(b).factor;
  if (fa != fb) return fa < fb ? a : b;
  return a < b ? a : b;
}

int64_t ConversionFactor(const std::string& from, const std::string& to) {
  if (from == to) return 1;
  return LookUpUnit(from).factor / LookUpUnit(to).factor;
}

bool UtcCalendarTime(int64_t nanos, std::tm* out) {
  // Rounded down: the second a time before 1970 falls in is the one below it.
  const time_t seconds = static_cast<time_t>(nanos / 1000000000 - (nanos % 1000000000 < 0));
  return gmtime_r(&seconds, out) != nullptr;
}

}  // namespace proftools
