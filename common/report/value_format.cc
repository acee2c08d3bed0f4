#include "common/report/value_format.h"

#include <cmath>
#include <cstdio>

namespace proftools {
namespace {

struct Scale {
  const char* suffix;
  double factor;  // size of one `suffix` in the base unit
};

// Nanoseconds per unit for the time units pprof profiles use.
bool TimeBase(const std::string& unit, double* nanos) {
  if (unit == "nanoseconds" || unit == "nanosecond" || unit == "ns")
    *nanos = 1;
  else if (unit == "microseconds" || unit == "microsecond" || unit == "us")
    *nanos = 1e3;
  else if (unit == "milliseconds" || unit == "millisecond" || unit == "ms")
    *nanos = 1e6;
  else if (unit == "seconds" || unit == "second" || unit == "s")
    *nanos = 1e9;
  else
    return false;
  return true;
}

bool ByteBase(const std::string& unit, double* bytes) {
  if (unit == "bytes" || unit == "byte" || unit == "B")
    *bytes = 1;
  else if (unit == "kilobytes" || unit == "KiB" || unit == "kB")
    *bytes = 1024;
  else if (unit == "megabytes" || unit == "MiB" || unit == "MB")
    *bytes = 1024.0 * 1024;
  else
    return false;
  return true;
}

std::string Scaled(double base_value, const Scale* scales, size_t count) {
  const double magnitude = std::fabs(base_value);
  size_t pick = 0;
  for (size_t i = 0; i < count; ++i) {
    if (magnitude >= scales[i].factor) pick = i;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", base_value / scales[pick].factor);
  std::string text = buf;
  if (text.size() > 3 && text.compare(text.size() - 3, 3, ".00") == 0) text.resize(text.size() - 3);
  if (text == "-0") text = "0";
  return text + scales[pick].suffix;
}

}  // namespace

std::string FormatValue(int64_t value, const std::string& unit, bool raw) {
  if (raw || value == 0) return std::to_string(value);
  double base;
  if (TimeBase(unit, &base)) {
    static const Scale kTime[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    return Scaled(static_cast<double>(value) * base, kTime, 4);
  }
  if (ByteBase(unit, &base)) {
    static const Scale kBytes[] = {{"B", 1},
                                   {"KiB", 1024.0},
                                   {"MiB", 1024.0 * 1024},
                                   {"GiB", 1024.0 * 1024 * 1024},
                                   {"TiB", 1024.0 * 1024 * 1024 * 1024}};
    return Scaled(static_cast<double>(value) * base, kBytes, 5);
  }
  return std::to_string(value);
}

std::string FormatPercent(int64_t value, int64_t total) {
  if (total == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%",
                100.0 * static_cast<double>(value) / static_cast<double>(total));
  return buf;
}

}  // namespace proftools
