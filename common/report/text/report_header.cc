#include "common/report/reports.h"

#include <cmath>
#include <ctime>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/units.h"
#include "common/model/writer_kit.h"
#include "common/report/value_format.h"

namespace proftools {

int ResolveValueIndex(const ProfileHeader& header, const std::string& name) {
  // A report needs a type to report on; which one, the writers choose alike (model/writer_kit).
  if (header.types.empty()) throw UsageError("the profile declares no value type");
  return ValueTypeIndex(header, name);
}

namespace {

// Nanoseconds in one `unit` of time, 0 for a unit that is not a time.
int64_t NanosPerUnit(const std::string& unit) {
  const KnownUnit known = LookUpUnit(unit);
  return known.dimension != nullptr && std::string(known.dimension) == "time" ? known.factor : 0;
}

// pprof's "Time: 2006-01-02 15:04:05 MST", always in UTC so that a report is the same wherever
// it is made.
std::string TimeLine(int64_t nanos) {
  std::tm tm = {};
  char text[64];
  if (!UtcCalendarTime(nanos, &tm) ||
      std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0) {
    return "";
  }
  return std::string("Time: ") + text + "\n";
}

}  // namespace

std::string ReportHeader(const StackTotals& totals, const ReportOptions& options,
                         const std::string& accounting) {
  const ProfileHeader& header = totals.header();
  const ValueType& type = header.types[options.value_index];
  std::string out = TypeLine(type);
  if (header.time_nanos) out += TimeLine(*header.time_nanos);
  if (header.duration_nanos) {
    // pprof's "Duration: 10s, Total samples = 9.50s (95.00%)", the share only for a time type.
    // (A difference's total is the base's: not compared with this profile's duration.)
    const int64_t total = totals.total_values()[options.value_index];
    out += "Duration: " + FormatValue(*header.duration_nanos, "nanoseconds", options.raw_values);
    if (!totals.is_diff()) {
      out += ", Total samples = " + FormatValue(total, type.unit, options.raw_values);
      // As pprof: the share of the duration, for a value in a unit of time.
      const int64_t per_unit = NanosPerUnit(type.unit);
      if (per_unit > 0 && *header.duration_nanos > 0) {
        const __int128 nanos = static_cast<__int128>(total) * per_unit;
        const int64_t duration_units = *header.duration_nanos / per_unit;
        if (nanos <= INT64_MAX && duration_units > 0) {
          out += " (" + FormatPercent(total, duration_units) + ")";
        }
      }
    }
    out += "\n";
  }
  if (!options.filter_description.empty()) {
    out += "Active filters:\n   " + options.filter_description + "\n";
  }
  if (totals.is_diff()) {
    out +=
        "Difference: values are this profile minus the base (--diff-base); the total and "
        "percentages are the base's\n";
  }
  out += accounting + "\n";
  return out;
}

std::string SampleCount(const StackTotals& totals, int value_index) {
  const int samples_type = totals.header().TypeIndex("samples");
  const uint64_t count = totals.total_samples();
  const std::vector<uint64_t>& with_value = totals.samples_with_value();
  if (samples_type < 0 && value_index >= 0 &&
      static_cast<size_t>(value_index) < with_value.size() && with_value[value_index] != count) {
    // Records of other kinds are not counted as if they were of this one.
    const uint64_t of_type = with_value[value_index];
    return " (" + std::to_string(of_type) + (of_type == 1 ? " sample" : " samples") + " with " +
           totals.header().types[value_index].type + ", of " + std::to_string(count) + ")";
  }
  return " (" + std::to_string(count) + (count == 1 ? " sample)" : " samples)");
}

uint64_t TrimCutoff(int64_t sum, double percent) {
  const double cutoff = std::trunc(static_cast<double>(sum) * percent / 100.0);
  if (!(std::fabs(cutoff) < 9.2e18)) return UINT64_MAX;
  return Magnitude(static_cast<int64_t>(cutoff));
}

std::string DroppedLine(size_t dropped, const char* singular, const char* plural,
                        const char* measure, const StackTotals& totals,
                        const ReportOptions& options) {
  const int64_t total = totals.total_values()[options.value_index];
  if (dropped == 0 || total == 0) return "";
  // pprof shows the threshold as a share of the report's total, though it cuts at that share
  // of the sum of values: the two differ only where values are negative.
  const uint64_t threshold = TrimCutoff(total, options.min_percent);
  const int64_t shown = threshold > INT64_MAX ? INT64_MAX : static_cast<int64_t>(threshold);
  const std::string& unit = totals.header().types[options.value_index].unit;
  return "Dropped " + std::to_string(dropped) + " " + (dropped == 1 ? singular : plural) + " (" +
         measure + " <= " + FormatValue(shown, unit, options.raw_values) + ")\n";
}

}  // namespace proftools
