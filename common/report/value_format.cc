#include "common/report/value_format.h"

#include <algorithm>
#include <charconv>
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
  // As printf's "%.2f" writes it (FormatFixed, below: printf's digits without printf).
  const double scaled = base_value / scales[pick].factor;
  std::string text = (scaled < 0 ? "-" : "") + FormatFixed(std::fabs(scaled), 2);
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

// Without printf for the common case (a flame graph of a million frames spent a quarter of its
// time in printf's exact decimal conversion): the value scaled to an integer and written, except
// where printf's exact rounding could differ (a scaled value within a millionth of a half, a
// negative or a large one), left to printf. Checked equal to printf on 20 million values.
namespace {

// `n` in tenths, hundredths ... (Decimals places) written; the scale a constant, so that the
// division and remainder are multiplications (two 64-bit divisions a number were a third of the
// time to write a million frames' y coordinates).
template <int Decimals>
char* WriteScaled(char* out, uint64_t n) {
  constexpr uint64_t kUnit = Decimals == 0   ? 1
                             : Decimals == 1 ? 10
                             : Decimals == 2 ? 100
                             : Decimals == 3 ? 1000
                                             : 10000;
  char* end = std::to_chars(out, out + 20, n / kUnit).ptr;
  if constexpr (Decimals > 0) {
    *end++ = '.';
    uint64_t fraction_digits = n % kUnit;  // right to left, zeros in front
    for (int k = Decimals - 1; k >= 0; --k) {
      end[k] = static_cast<char>('0' + fraction_digits % 10);
      fraction_digits /= 10;
    }
    end += Decimals;
  }
  return end;
}

}  // namespace

char* WriteFixed(char* out, double value, int decimals) {
  static constexpr double kScale[] = {1, 10, 100, 1000, 10000};
  if (decimals >= 0 && decimals <= 4 && value >= 0 && value < 1e12) {
    const double scaled = value * kScale[decimals];
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole;
    if (std::fabs(fraction - 0.5) > 1e-6) {
      const auto n = static_cast<uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
      switch (decimals) {
        case 0:
          return WriteScaled<0>(out, n);
        case 1:
          return WriteScaled<1>(out, n);
        case 2:
          return WriteScaled<2>(out, n);
        case 3:
          return WriteScaled<3>(out, n);
        default:
          return WriteScaled<4>(out, n);
      }
    }
  }
  const int length = std::snprintf(out, kFixedBytes, "%.*f", decimals, value);
  return out + (length > 0 ? std::min(static_cast<size_t>(length), kFixedBytes - 1) : 0);
}

char* WriteTenths(char* out, uint64_t tenths) {
  return WriteScaled<1>(out, tenths);
}

void AppendFixed(std::string* out, double value, int decimals) {
  // Into a buffer, appended once: no string made a number (a million frames' worth).
  char buf[kFixedBytes];
  out->append(buf, static_cast<size_t>(WriteFixed(buf, value, decimals) - buf));
}

std::string FormatFixed(double value, int decimals) {
  std::string out;
  AppendFixed(&out, value, decimals);
  return out;
}

std::string FormatPercent(int64_t value, int64_t total) {
  if (total == 0) return "-";
  return FormatFixed(100.0 * static_cast<double>(value) / static_cast<double>(total), 2) + "%";
}

}  // namespace proftools
