// The syntax of one folded-stacks line (FlameGraph's `frame;frame;...;leaf VALUE`, root first),
// as the producers write it: the values at the end, frame annotations (`_[k]`, `_[j]`, ...),
// prof-text --folded's escapes, py-spy's `name (file:line)` frames and the thread or process
// root frames of stackcollapse-perf, async-profiler and py-spy. Pure functions over views: the
// reader (folded_reader.h) and the sniffer both use them.
#ifndef PROFTOOLS_COMMON_FOLDED_FOLDED_SYNTAX_H_
#define PROFTOOLS_COMMON_FOLDED_FOLDED_SYNTAX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/model/frame_kind.h"
#include "common/model/model.h"

namespace proftools {

// The most values a line carries: difffolded.pl writes `stack BEFORE AFTER`.
inline constexpr int kMaxFoldedValues = 2;

// A line cut into its stack and its value tokens.
struct FoldedLine {
  std::string_view stack;  // without the whitespace before the values
  std::string_view values[kMaxFoldedValues];
  int value_count = 0;
};

// Whether `token` is a value as FlameGraph takes it: digits, optionally `.` and more digits
// (a sign is not: negative values are caught by ParseFoldedValue's caller as not numbers).
bool LooksLikeFoldedValue(std::string_view token);

// Splits `line` (no line end) at its last blank-separated token, or its last two when
// `value_count` is 2; with `value_count` 0 it takes two when the last two tokens are both
// values and the rest is not empty, else one (with 1, a frame may end with a number: `f 12 5`
// is frame `f 12`). One blank separates the stack from a value: the stack keeps any others.
// Blanks after the last value are ignored. Returns false, with `why` set, when the line has no
// value or no stack.
bool SplitFoldedLine(std::string_view line, int value_count, FoldedLine* out, std::string* why);

// A value: an integer, or a decimal with up to 18 digits after the point. `*mantissa` is the
// value times 10^`*decimals`. Returns false with `why` set for anything else (a sign, an
// exponent, a value or mantissa beyond int64).
bool ParseFoldedValue(std::string_view token, int64_t* mantissa, int* decimals, std::string* why);

// What FlameGraph's and async-profiler's frame suffixes say.
struct FrameAnnotation {
  CodeKind kind = CodeKind::kNative;
  bool inlined = false;  // _[i]: inlined into the frame before it (its caller)
};

// Strips the annotations at the end of `frame` (up to two: `f_[i]_[j]` is how prof-text
// --folded --flamegraph marks an inlined JIT frame): _[k] kernel, _[j] and _[1] JIT, _[0]
// interpreted, _[w] waker, _[i] inlined. Returns the name without them.
std::string_view StripAnnotations(std::string_view frame, FrameAnnotation* annotation);

// Undoes prof-text --folded's escapes (report_folded.cc EscapeFoldedFrame): `\\`, `\xHH`, `\n`,
// `\r`, `\t`. Any other backslash is kept as it is.
std::string UnescapeFoldedFrame(std::string_view frame);

// py-spy's `function (file:line)`: true, with the three parts, when `frame` has that shape
// (a non-empty function, a file without parentheses, a decimal line).
bool SplitPythonFrame(std::string_view frame, std::string_view* function, std::string_view* file,
                      int64_t* line);

// The labels a thread or process root frame stands for (producer_kit.h's keys), in the order
// comm, pid, tid, thread. `frame` is unescaped.
//   async-profiler   [NAME tid=N]           thread NAME, tid N
//   py-spy           process N:"CMD"        pid N, comm CMD
//                    thread (N) / (0xHEX)   tid N / thread 0xHEX (a pthread id, not a tid)
//   stackcollapse    COMM-PID/TID, COMM-PID (PID may be `?`), else COMM
// `*py_spy_process` is set when the frame is py-spy's process frame (a thread frame may follow).
std::vector<Label> ThreadRootLabels(std::string_view frame, bool* py_spy_process);

// Whether `frame` is py-spy's `thread (ID)` frame; its labels are appended to `labels`.
bool PythonThreadLabels(std::string_view frame, std::vector<Label>* labels);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FOLDED_FOLDED_SYNTAX_H_
