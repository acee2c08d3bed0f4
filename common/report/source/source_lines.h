// Values per source line: pprof's -list attribution (internal/report/source.go), shared by
// prof-text --list (report_list.cc) and prof-html's source pane (html_report.cc). Frames at line
// granularity, every inlined line a frame of its own, as pprof's graph makes them.
#ifndef PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_LINES_H_
#define PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_LINES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/report/source/source_files.h"
#include "common/report/stack_totals.h"

namespace proftools {

struct LineValues {
  int64_t flat = 0;
  int64_t cum = 0;
};

struct SourceLineValues {
  // (function name, trimmed file, line) -> values: pprof's node identity at line granularity.
  using Key = std::tuple<std::string, std::string, int64_t>;
  std::map<Key, LineValues> lines;
  // Every selected function on a sample's stack, with or without a file.
  std::set<std::string> names;
};

// The file a Java method's class is usually in, as a Java stack trace names it: `pkg/Class.java`
// for `pkg.Class.method`, `pkg.Class$Inner.method` or `pkg.Class$$Lambda.run` (the top-level
// class's file); "" for a name that is not dotted Java identifiers. (A class may be in a file
// of another name, or be Kotlin's or Scala's: then no file is found, and --list says so.)
std::string JavaSourceFile(std::string_view name);

// The flat and cum values of value type `value_index` at each line of the functions whose name
// `selected` accepts: flat the leaf's (when the leaf line is a selected function's), cum once per
// stack for each (function, file, line) on it (recursion counts once). Files are trimmed by
// `sources` (SourceFiles::Trim); functions without a file have a name but no lines, except in a
// profile with a JFR source, whose methods have the file of JavaSourceFile. With
// `skip_lineless`, as --granularity filelines: entries without a line number are no frames, so
// flat goes to the innermost frame with a line (R's summaryRprof(lines = "show") self time).
SourceLineValues AttributeSourceLines(const StackTotals& totals, int value_index,
                                      const SourceFiles& sources,
                                      const std::function<bool(const std::string&)>& selected,
                                      bool skip_lineless = false);

// The files of function `name` in `values`, in order of name, each with its lines' values and
// their sums (empty: the function has no file).
struct FunctionFile {
  std::string file;
  std::map<int64_t, LineValues> lines;
  int64_t flat = 0;
  int64_t cum = 0;
};
std::vector<FunctionFile> FilesOf(const SourceLineValues& values, const std::string& name);

// A source line as text for one row: tabs kept, as pprof prints them; other control bytes and
// invalid UTF-8 escaped so that a line stays one line.
std::string DisplaySourceLine(std::string_view line);

// Lines shown before the first and after the last line with samples (pprof's margin).
constexpr int64_t kSourceMargin = 5;

// One file of one function, as --list shows it: the lines from `kSourceMargin` before the first
// line with values to `kSourceMargin` after the last, those the text has; `beyond` the lines with
// values that the text does not have (no text, or a text shorter than the profile says).
struct SourceRange {
  int64_t first_shown = 1;  // first_shown > last_shown: no text lines shown
  int64_t last_shown = 0;
  std::vector<int64_t> beyond;
};
SourceRange ShownRange(const std::map<int64_t, LineValues>& lines, const SourceText& text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_SOURCE_SOURCE_LINES_H_
