// gprof's text report (`gprof PROGRAM gmon.out`, with or without -b; the flat profile and the
// call graph, or either), for those who kept the report and not gmon.out. What a profile gets:
// - one source of type "gprof-report" (its uri the path);
// - `time` (nanoseconds: the flat profile's self seconds, to the report's two decimals) and,
//   when the report has a call graph, `calls` (count: the call graph's calls per caller and
//   callee, a function's calls to itself left out as in the flat profile's calls);
// - stacks built from the call graph's arcs as from gmon.out (gprof2prof), each weighing the
//   self and children seconds gprof printed for it; without a call graph, one frame each.
// The period is "Each sample counts as" the report says.
#ifndef PROFTOOLS_COMMON_GPROF_GPROF_REPORT_H_
#define PROFTOOLS_COMMON_GPROF_GPROF_REPORT_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "gprof-report", the whole input in memory (a report is small).
extern const ReaderSpec kGprofReportReader;

// kCertain when `head` starts (blank lines aside) with "Flat profile:", or with gprof's call
// graph header ("Call graph" and "granularity:").
int SniffGprofReport(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_GPROF_GPROF_REPORT_H_
