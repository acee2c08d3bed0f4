// The human-readable reports of prof-text: top (flat and cumulative per frame), traces (each
// distinct stack with its total), a call tree, and folded stacks (FlameGraph input).
#ifndef PROFTOOLS_COMMON_REPORT_REPORTS_H_
#define PROFTOOLS_COMMON_REPORT_REPORTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/report/frames.h"
#include "common/report/stack_totals.h"

namespace proftools {

// The sequence views: --sequences, --peek, --peek-seq.
struct SequenceOptions {
  size_t max_length = 4;   // --max-length: frames in a listed sequence
  bool by_self = false;    // --self: list by the value of samples a sequence ends
  std::string peek_regex;  // --peek: frames whose name matches (RE2, unanchored)
  // --peek-seq, once or more: sequences `a;b;c` with names escaped as folded, a block each.
  std::vector<std::string> peek_sequences;
};

// prof-text --list: functions whose name matches `regex`, with their source lines, found as
// pprof finds them (source_files.h).
struct ListOptions {
  std::string regex;
  std::string source_path;  // directories separated by ':' ("": the working directory)
  std::string trim_path;    // prefixes separated by ':'
};

struct ReportOptions {
  int value_index = 0;  // which value type (see ResolveValueIndex)
  Granularity granularity = Granularity::kFunctions;
  bool raw_values = false;  // exact integers instead of "1.5ms"
  size_t node_count = 0;    // show at most this many rows, traces or nodes (0: all)
  // Rows (nodes, traces, sequences, lines) worth less than this percentage are left out: in
  // top, tree and traces pprof's nodefraction (of the sum of values, by |cum|), elsewhere of
  // the total. 0: none.
  double min_percent = 0;
  // --dot: edges worth less than this percentage of the sum of values are left out (pprof's
  // edgefraction).
  double edge_percent = 0;
  bool sort_by_cum = false;        // top: sort by cumulative instead of flat value
  std::string filter_description;  // prof-filter's options applied (FilterSpec::description)
  std::vector<std::string> active_filters;  // the same, one by one (FilterSpec::options)
  SequenceOptions sequences;
  bool mark_cycles = false;  // traces: collapse directly repeated cycles, written `a (b c)* d`
  ListOptions list;
};

// The index of the type named `name`, or of the default type when `name` is empty. Throws
// UsageError naming the available types when there is no such type.
int ResolveValueIndex(const ProfileHeader& header, const std::string& name);

void WriteTopReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// pprof's -list: for each function matching options.list.regex, each of its files with its
// lines' flat and cum values (report_list.cc). Returns warnings (a file not found, shorter than
// the profile says) for the caller to show. Throws UsageError when nothing matches.
std::vector<std::string> WriteListReport(const StackTotals& totals, const ReportOptions& options,
                                         ByteSink* out);
void WriteTracesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
void WriteFoldedReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// The call graph in Graphviz DOT, as pprof -dot draws it (report_dot.cc, pprof_graph.h):
// node_count, min_percent and edge_percent trim it as pprof's nodecount, nodefraction and
// edgefraction.
// `share`: hands the graph's stacks between graphs of several types of the same totals
// (pprof_graph.h).
class PprofGraphStacksShare;
void WriteDotReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out,
                    PprofGraphStacksShare* share = nullptr);
// A top-down call tree: each path from a root, children indented under their caller, largest
// cumulative value first, with flat values where a path ends.
void WriteTreeReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// Subsequences of consecutive frames (after collapsing directly repeated cycles), largest
// first, each with the value at every prefix (report_sequences.cc).
void WriteSequencesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// For each frame matching --peek, or the --peek-seq sequence: its cum and self values, its
// callers and callees, each with the sequence to peek next (report_peek.cc). Throws UsageError
// for a bad expression or a sequence naming a frame no sample holds.
void WritePeekReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out);
// Throws UsageError when --peek's expression does not compile: called before any reading.
void CheckPeekRegex(const std::string& regex);

// A frame name made safe for folded stacks: `\` -> `\\`, `;` -> `\x3b`, LF -> `\n`, CR -> `\r`,
// HT -> `\t`, other control bytes and bytes that are not valid UTF-8 -> `\xHH`. Everything else
// (spaces, UTF-8 text) is kept.
std::string EscapeFoldedFrame(std::string_view name);

// A frame name made safe for one line of a human report: control bytes and invalid UTF-8
// escaped (`\n`, `\t`, `\r`, `\xHH`), everything else kept. Every string of the profile a
// report prints goes through it: a terminal never receives an escape sequence from a profile.
std::string DisplayFrameName(std::string_view name);

// A report's first line, "Type: NAME/UNIT\n", the profile's name and unit shown as
// DisplayFrameName shows them.
std::string TypeLine(const ValueType& type);

// Writes `text` out and clears it once it holds 1 MiB, so that a long report is written as it
// is made instead of held whole.
inline void WriteWhenLarge(std::string* text, ByteSink* out) {
  if (text->size() < (size_t{1} << 20)) return;
  out->Write(*text);
  text->clear();
}

// The lines every report starts with: type, time and duration, active filters, the base of a
// difference, and what the report accounts for.
std::string ReportHeader(const StackTotals& totals, const ReportOptions& options,
                         const std::string& accounting);

// " (N samples)": N is the total of the type `samples` when the profile has one (so that a
// profile says the same whichever way it came), else the number of sample records. When only
// some records carry a value of the shown type (perf2prof --off-cpu: switch records and
// off-CPU intervals), N counts those and says so: " (N samples with TYPE, of M)".
std::string SampleCount(const StackTotals& totals, int value_index);

// pprof's trimming threshold: |trunc(sum × percent / 100)|, where `sum` is the signed sum of the
// values (pprof's totalValue). Rows whose |value| is below it are dropped.
uint64_t TrimCutoff(int64_t sum, double percent);

// "Dropped N nodes (cum <= X)\n" as pprof writes it (X of the report's total), or "" when
// nothing was dropped.
std::string DroppedLine(size_t dropped, const char* singular, const char* plural,
                        const char* measure, const StackTotals& totals,
                        const ReportOptions& options);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_REPORTS_H_
