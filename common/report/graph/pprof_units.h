// Values as pprof's graph and DOT output print them (its internal/measurement package): a unit
// chosen for the whole report, "%.2f" with ".00" dropped, pprof's unit names (B, kB, MB … in
// powers of 1024; ns, us, ms, s, hrs), and its percentages. prof-text's other reports print
// values their own way (value_format.h); --dot matches pprof -dot byte for byte.
#ifndef PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_UNITS_H_
#define PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_UNITS_H_

#include <cstdint>
#include <string>

namespace proftools {

struct PprofScaled {
  double value = 0;
  std::string unit;  // "" for a unit pprof does not print (count, samples)
};

// `value` in `from` expressed in `to`: a unit name ("ms", "MB", "seconds"), or "minimum"/"auto"
// for the largest unit that keeps the value at least 1. Units of memory, time and GCU are
// converted; any other unit is kept as it is ("" for count, sample, unit).
PprofScaled PprofScale(int64_t value, const std::string& from, const std::string& to);

// "1.10s", "62.50MB", "0": PprofScale's value with two decimals, ".00" dropped, and its unit.
std::string PprofScaledLabel(int64_t value, const std::string& from, const std::string& to);

// "98.21%", "100%", "0.89%", "0.0012%": pprof's Percentage, without its padding.
std::string PprofPercentage(int64_t value, int64_t total);

// The unit a report shows every value in (pprof's selectOutputUnit with -unit=minimum): that
// of the smallest non-zero value, or of 100 times it when the largest (`max_value`) needs a
// larger unit. `sample_unit` when the unit is not one pprof scales.
std::string PprofOutputUnit(int64_t min_value, int64_t max_value, const std::string& sample_unit);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_GRAPH_PPROF_UNITS_H_
