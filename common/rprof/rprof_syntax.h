// The line syntax of files written by R's Rprof() (the format as R really writes it is described
// in man/man1/rprof2prof.1): the header line, `#File k: path` lines, and sample lines made of an
// optional memory prefix `:small_v:big_v:nodes:dup_count:`, srcref tokens `k#l ` and frame
// tokens `"name" `, innermost first.
//
// R does not escape names, so a frame token ends at the first `" ` that is followed by another
// token (`"`, a srcref) or by the end of the line; any other `"` belongs to the name. These
// functions only take lines apart; what the parts mean is the converter's business
// (rprof_converter.h).
#ifndef PROFTOOLS_COMMON_RPROF_RPROF_SYNTAX_H_
#define PROFTOOLS_COMMON_RPROF_RPROF_SYNTAX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

// R stops adding frames to a sample line once it holds this many bytes (PROFLINEMAX in R's
// eval.c): a longer line may have lost its outermost frames.
inline constexpr size_t kRprofLineLimit = 10000;

// The header line R writes when profiling starts:
// `[memory profiling: ][GC profiling: ][line profiling: ]sample.interval=N` (N in µs).
struct RprofHeader {
  std::string text;  // the whole line, as written
  uint64_t interval_us = 0;
  bool memory = false;
  bool gc = false;
  bool lines = false;
};

// Recognises a header line: it starts with a letter, has no `"`, and holds
// `sample.interval=DIGITS`. Unknown `xxx: ` prefixes are accepted. Returns false otherwise (also
// when the interval does not fit in microseconds that convert to int64 nanoseconds).
bool ParseRprofHeader(std::string_view line, RprofHeader* out);

// `#File k: path` (path may be empty, and is taken verbatim). Returns false when `line` is not
// one; *number is then unspecified.
bool ParseRprofFileLine(std::string_view line, uint64_t* number, std::string_view* path);

enum class RprofLineKind {
  kHeader,  // ParseRprofHeader accepts it
  kFile,    // starts with "#File "
  kSample,  // starts with ':', '"' or a digit
  kOther,   // anything else: garbage, or the continuation of a name that holds a newline
};

RprofLineKind ClassifyRprofLine(std::string_view line);

// The memory prefix of a sample line. The fields are R's absolute snapshots: small_v and big_v
// in 8-byte vector cells, nodes in bytes; dup_count counts calls to duplicate() since the
// previous tick.
struct RprofMemory {
  uint64_t small_v = 0;
  uint64_t big_v = 0;
  uint64_t nodes = 0;
  uint64_t dup_count = 0;
};

enum class RprofPrefix { kNone, kValid, kMalformed };

// Parses `:a:b:c:d:` at the start of `line`. On kValid, *length is the prefix's length. Values
// that would overflow int64 once converted to bytes make the prefix kMalformed.
RprofPrefix ParseRprofMemoryPrefix(std::string_view line, RprofMemory* out, size_t* length);

// A `k#l` srcref: file number k (1-based; 0 means "no srcref") and line l.
struct RprofSrcref {
  uint64_t file = 0;
  int64_t line = 0;
  bool present() const { return file != 0; }
};

struct RprofFrame {
  std::string_view name;  // between the quotes, as written
  RprofSrcref srcref;     // the srcref written just before the frame
  std::string_view span;  // the frame's text from its srcref (if any) to its closing quote
};

// How the text of a sample line ended.
enum class RprofLineEnd {
  kComplete,   // every token closed and followed by its space (as R writes every line)
  kOpenQuote,  // ends inside a name: cut short, or the name goes on after a newline
  kCut,        // ends without the final space (an incomplete last token is dropped)
  kGarbage,    // a token that is neither `"name" ` nor `k#l ` at garbage_offset
};

struct RprofStackText {
  std::vector<RprofFrame> frames;  // innermost first, as written (including a "<GC>" marker)
  RprofSrcref trailing;            // a srcref after the last frame, followed by no frame
  RprofLineEnd end = RprofLineEnd::kComplete;
  size_t garbage_offset = 0;
  bool quote_space_in_name = false;  // a name holds `" ` (not followed by a token)
  bool empty_name = false;           // a frame `"" `

  void Clear();
};

// Splits the part of a sample line after the memory prefix into frames. Views point into
// `text`.
void ParseRprofStack(std::string_view text, RprofStackText* out);

// Whether the text of a sample that ParseRprofStack finds ending inside a name (kOpenQuote)
// still ends inside a name once `more` is appended to it. Looks at `more` only, so that joining
// the lines of a name that holds newlines costs the length of each line, not of the whole.
bool RprofStillInsideName(std::string_view more);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_RPROF_RPROF_SYNTAX_H_
