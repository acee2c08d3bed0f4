// Units of time (nanoseconds ... hours), memory (bytes ... terabytes, powers of 1024 as pprof
// counts them, whichever spelling) and count: what prof-merge converts between when inputs
// measure one value type in different units (formats/prof-text.md §5.1), and what option values
// such as prof-filter's "1.5s" or "64KiB" may say. Anything else converts only to itself.
#ifndef PROFTOOLS_COMMON_BASE_UNITS_H_
#define PROFTOOLS_COMMON_BASE_UNITS_H_

#include <cstdint>
#include <ctime>
#include <string>

namespace proftools {

struct KnownUnit {
  const char* dimension = nullptr;  // "time", "memory", "count"; nullptr: unknown unit
  int64_t factor = 0;               // how many of the dimension's smallest unit one unit is
};

// Looks `unit` up (exact spelling: "nanoseconds", "ns", "bytes", "MiB", ...).
KnownUnit LookUpUnit(const std::string& unit);

// True when a value in `a` can be expressed in `b` and back: the same spelling, or known units
// of the same dimension.
bool UnitsConvertible(const std::string& a, const std::string& b);

// Of two convertible units, the one values are merged into: the finer (so that conversion is an
// exact multiplication), and of two spellings of the same size the bytewise smaller. Choosing by
// an order makes the choice associative and independent of input order.
const std::string& FinerUnit(const std::string& a, const std::string& b);

// The integer that converts a value in `from` into `to`; `to` must be `from` or finer.
int64_t ConversionFactor(const std::string& from, const std::string& to);

// The calendar time in UTC of `nanos` since the Unix epoch, to the second below (a time before
// 1970 too): what reports print, the same wherever they are made. False when out of range.
bool UtcCalendarTime(int64_t nanos, std::tm* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_UNITS_H_
