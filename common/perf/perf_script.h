// The lines of `perf script` text, one at a time: sample header lines, frame lines and
// `-F +srcline` lines. Byte-level parsing (no regular expressions, no allocation): every field
// is a view into the line.
//
// A header line is `COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT: [REST]`. Every part but the
// thread id may be missing depending on the perf version and `-F`; COMM may hold spaces and end
// in digits (`net io 2`), be one character long or be right-aligned with leading spaces. The
// timestamp, when present, anchors the parse: the thread id is the token before it (or before
// `[CPU]`), and COMM is everything before that, so a COMM ending in a number cannot be
// mistaken for the thread id. REST is a frame when perf printed no call chain, or the
// arguments of a tracepoint event.
//
// A frame line is `ADDR SYMBOL[+0xOFF] (DSO)`, with or without leading whitespace; the DSO is
// the last balanced parenthesised group (so it may hold spaces and `(deleted)`).
#ifndef PROFTOOLS_COMMON_PERF_PERF_SCRIPT_H_
#define PROFTOOLS_COMMON_PERF_PERF_SCRIPT_H_

#include <cstdint>
#include <string_view>

namespace proftools {

struct PerfHeader {
  std::string_view comm;  // may be empty (perf script -F -comm)
  bool has_pid = false;   // perf printed PID/TID
  int64_t pid = 0;        // -1 when perf knew no such thread
  int64_t tid = 0;        // the one number perf prints by default is the thread id
  bool has_cpu = false;
  uint64_t cpu = 0;
  bool has_time = false;
  int64_t time_nanos = 0;
  bool has_period = false;
  int64_t period = 0;
  std::string_view event;  // as printed, modifiers kept (`cycles:u`), final ':' removed
  std::string_view rest;   // what follows the event, trimmed: a frame or tracepoint arguments
};

// Parses a header line (CR and blanks around it are ignored). False when it is not one.
bool ParsePerfHeader(std::string_view line, PerfHeader* out);

struct PerfFrame {
  uint64_t address = 0;
  std::string_view symbol;      // `+0xOFF` removed; empty when perf printed none
  std::string_view dso;         // without ` (deleted)`; empty when perf printed none
  bool deleted = false;         // the dso was marked `(deleted)`
  bool unknown_symbol = false;  // `[unknown]` or empty
  bool unknown_dso = false;     // `[unknown]`, empty or `(inlined)`
  bool inlined = false;         // `(inlined)` in place of the DSO: a function inlined at address
};

// Parses a frame line. False when it is not one.
bool ParsePerfFrame(std::string_view line, PerfFrame* out);

// Whether a trimmed line is a frame line: 1 to 16 hex digits, then a blank. This alone decides
// (ParsePerfFrame accepts exactly these lines), so readers classify lines without taking them
// apart; only frames not seen before need ParsePerfFrame.
bool IsPerfFrame(std::string_view trimmed);

// A `-F +srcline` line: `  file.cpp:NN` (file and line returned), or a form without a line
// (`libc.so.6[27b25]`, `??:0`, `:0`; *line is then 0), possibly followed by ` (inlined)`, the
// tag of an inlined frame (*inlined says whether it was). False when the line is none of these.
bool ParsePerfSrcline(std::string_view line, std::string_view* file, int64_t* line_number,
                      bool* inlined);

// A decimal integer, optionally negative, of at most 18 digits (ids, tracepoint arguments).
bool ParsePerfInteger(std::string_view text, int64_t* out);

// Blanks (SP, HT) and a CR at either end removed.
std::string_view TrimPerfLine(std::string_view line);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_SCRIPT_H_
