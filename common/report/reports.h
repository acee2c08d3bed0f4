// The human-readable reports of prof-text: top (flat and cumulative per frame), traces (each
// distinct stack with its total), a call tree, and folded stacks (FlameGraph input).
#ifndef PROFTOOLS_COMMON_REPORT_REPORTS_H_
#define PROFTOOLS_COMMON_REPORT_REPORTS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "common/io/byte_stream.h"
#include "common/report/frames.h"
#include "common/report/stack_totals.h"

namespace proftools {

struct ReportOptions {
  int value_index = 0;  // which value type (see ResolveValueIndex)
  Granularity granularity = Granularity::kFunctions;
  bool raw_values = false;         // exact integers instead of "1.5ms"
  size_t node_count = 0;           // top: show at most this many rows (0: all)
  bool sort_by_cum = false;        // top: sort by cumulative instead of flat value
  std::string filter_description;  // prof-filter's options applied (FilterSpec::description)
};

// The index of the type named `name`, or of the default type when `name` is empty. Throws
// UsageError naming the available types when there is no such type.
int ResolveValueIndex(const ProfileHeader& header, const std::string& name);

void WriteTopReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
void WriteTracesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
void WriteFoldedReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// A top-down call tree: each path from a root, children indented under their caller, largest
// cumulative value first, with flat values where a path ends.
void WriteTreeReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);

// A frame name made safe for folded stacks: `\` -> `\\`, `;` -> `\x3b`, LF -> `\n`, CR -> `\r`,
// HT -> `\t`, other control bytes and bytes that are not valid UTF-8 -> `\xHH`. Everything else
// (spaces, UTF-8 text) is kept.
std::string EscapeFoldedFrame(std::string_view name);

// A frame name made safe for one line of a human report: control bytes and invalid UTF-8
// escaped (`\n`, `\t`, `\r`, `\xHH`), everything else kept.
std::string DisplayFrameName(std::string_view name);

// The lines every report starts with: type, active filters, and what the report accounts for.
std::string ReportHeader(const StackTotals& totals, const ReportOptions& options,
                         const std::string& accounting);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_REPORTS_H_
