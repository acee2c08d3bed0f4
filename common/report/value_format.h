// Rendering values for people: "1.50s", "12MiB", "42", with exact integers on request.
#ifndef PROFTOOLS_COMMON_REPORT_VALUE_FORMAT_H_
#define PROFTOOLS_COMMON_REPORT_VALUE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace proftools {

// Formats `value` measured in `unit`. Time units (nanoseconds … seconds) are scaled to the
// largest of ns, us, ms, s that keeps the number ≥ 1; byte units to B, KiB, MiB, GiB, TiB
// (powers of 1024); two decimals, ".00" dropped. Other units, and every unit when `raw` is set,
// give the exact integer.
std::string FormatValue(int64_t value, const std::string& unit, bool raw);

// printf's "%.*f" of `value`, byte for byte (0 to 4 decimals fast; others through printf).
std::string FormatFixed(double value, int decimals);
// The same appended to `out`.
void AppendFixed(std::string* out, double value, int decimals);
// The same written at `out`, which has room for kFixedBytes: where it ends.
inline constexpr size_t kFixedBytes = 64;
char* WriteFixed(char* out, double value, int decimals);
// WriteFixed(out, tenths / 10.0, 1) for a whole number of tenths, from the integer.
char* WriteTenths(char* out, uint64_t tenths);

// "12.34%" of `total`; "-" when the total is 0.
std::string FormatPercent(int64_t value, int64_t total);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_VALUE_FORMAT_H_
