#include "common/perf/perf_script.h"

#include <cstddef>

namespace proftools {
namespace {

inline bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}
inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
inline bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// Decimal digits to a number; false on overflow (more than 18 digits is refused outright).
bool ParseDecimal(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 18) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

// A thread or process id: decimal, or -1, which perf prints for a thread it has no record of
// (`perf sched record` headers `:-1    -1 [000] ...`, whose COMM is `:-1`).
bool ParseId(std::string_view s, int64_t* out) {
  uint64_t v = 0;
  if (s == "-1") {
    *out = -1;
    return true;
  }
  if (!ParseDecimal(s, &v)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

// `PID` or `PID/TID`.
bool ParseThread(std::string_view token, PerfHeader* out) {
  const size_t slash = token.find('/');
  if (slash == std::string_view::npos) {
    out->has_pid = false;
    return ParseId(token, &out->tid);
  }
  out->has_pid = true;
  return ParseId(token.substr(0, slash), &out->pid) && ParseId(token.substr(slash + 1), &out->tid);
}

// `[003]`.
bool ParseCpu(std::string_view token, uint64_t* cpu) {
  return token.size() >= 3 && token.front() == '[' && token.back() == ']' &&
         ParseDecimal(token.substr(1, token.size() - 2), cpu);
}

// `SECONDS.FRACTION:` (perf prints 6 or 9 fraction digits) to nanoseconds.
bool ParseTime(std::string_view token, int64_t* nanos) {
  if (token.size() < 4 || token.back() != ':') return false;
  token.remove_suffix(1);
  const size_t dot = token.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == token.size()) return false;
  uint64_t seconds = 0;
  if (!ParseDecimal(token.substr(0, dot), &seconds) || seconds > 9000000000ull) return false;
  const std::string_view fraction = token.substr(dot + 1);
  if (fraction.size() > 9 || !AllDigits(fraction)) return false;
  uint64_t frac = 0;
  ParseDecimal(fraction, &frac);
  for (size_t i = fraction.size(); i < 9; ++i) frac *= 10;
  *nanos = static_cast<int64_t>(seconds * 1000000000ull + frac);
  return true;
}

// The blank-separated tokens of a line, at most kMaxTokens (a header needs only its first few;
// everything after the event is kept as one piece).
struct Tokens {
  static constexpr size_t kMaxTokens = 48;
  std::string_view token[kMaxTokens];
  size_t count = 0;
};

void Tokenize(std::string_view line, Tokens* tokens) {
  size_t i = 0;
  tokens->count = 0;
  while (i < line.size() && tokens->count < Tokens::kMaxTokens) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    if (i == line.size()) break;
    const size_t start = i;
    while (i < line.size() && !IsBlank(line[i])) ++i;
    tokens->token[tokens->count++] = line.substr(start, i - start);
  }
}

// The text of `line` from the start of token `from` to the end of token `to` (inclusive), or
// empty when to < from.
std::string_view Span(std::string_view line, const Tokens& t, size_t from, size_t to) {
  if (to < from || to == static_cast<size_t>(-1)) return {};
  const char* begin = t.token[from].data();
  const char* end = t.token[to].data() + t.token[to].size();
  return line.substr(static_cast<size_t>(begin - line.data()), static_cast<size_t>(end - begin));
}

// The text after token `index`, trimmed.
std::string_view After(std::string_view line, const Tokens& t, size_t index) {
  const char* end = t.token[index].data() + t.token[index].size();
  return TrimPerfLine(line.substr(static_cast<size_t>(end - line.data())));
}

// Fills comm, thread and cpu from the tokens before `anchor` (the timestamp or the event).
// Returns false when the token before it (after an optional [CPU]) is not a thread id.
bool ParseBeforeAnchor(std::string_view line, const Tokens& t, size_t anchor, PerfHeader* out) {
  if (anchor == 0) return false;
  size_t j = anchor - 1;
  out->has_cpu = ParseCpu(t.token[j], &out->cpu);
  if (out->has_cpu) {
    if (j == 0) return false;
    --j;
  }
  if (!ParseThread(t.token[j], out)) return false;
  out->comm = j == 0 ? std::string_view() : Span(line, t, 0, j - 1);
  return true;
}

bool EndsWithColon(std::string_view token) {
  return token.size() > 1 && token.back() == ':';
}

// The event (and the period before it) from token k on; fills rest.
bool ParseEvent(std::string_view line, const Tokens& t, size_t k, PerfHeader* out) {
  out->has_period = false;
  if (k >= t.count) {
    out->event = {};
    out->rest = {};
    return true;  // `-F` without the event
  }
  if (k + 1 == t.count && AllDigits(t.token[k])) {  // `-F ...,period` without the event
    uint64_t period = 0;
    if (!ParseDecimal(t.token[k], &period)) return false;
    out->has_period = true;
    out->period = static_cast<int64_t>(period);
    out->event = {};
    out->rest = {};
    return true;
  }
  if (k + 1 < t.count && AllDigits(t.token[k]) && EndsWithColon(t.token[k + 1])) {
    uint64_t period = 0;
    if (!ParseDecimal(t.token[k], &period)) return false;
    out->has_period = true;
    out->period = static_cast<int64_t>(period);
    ++k;
  }
  // No event name starts with a digit; a token that does is a timestamp perf2prof could not read.
  if (!EndsWithColon(t.token[k]) || IsDigit(t.token[k][0])) return false;
  out->event = t.token[k].substr(0, t.token[k].size() - 1);
  out->rest = After(line, t, k);
  return true;
}

}  // namespace

bool ParsePerfInteger(std::string_view text, int64_t* out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  uint64_t v = 0;
  if (!ParseDecimal(text, &v)) return false;
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

std::string_view TrimPerfLine(std::string_view line) {
  size_t begin = 0;
  size_t end = line.size();
  while (begin < end && IsBlank(line[begin])) ++begin;
  while (end > begin && (IsBlank(line[end - 1]) || line[end - 1] == '\r')) --end;
  return line.substr(begin, end - begin);
}

bool ParsePerfHeader(std::string_view line, PerfHeader* out) {
  line = TrimPerfLine(line);
  if (line.empty() || line[0] == '#') return false;
  Tokens t;
  Tokenize(line, &t);
  *out = PerfHeader();
  // With a timestamp: it anchors everything.
  for (size_t i = 0; i < t.count; ++i) {
    const std::string_view token = t.token[i];
    if (token.back() != ':' || !IsDigit(token[0])) continue;
    int64_t nanos = 0;
    if (!ParseTime(token, &nanos)) continue;
    if (!ParseBeforeAnchor(line, t, i, out)) break;
    out->has_time = true;
    out->time_nanos = nanos;
    return ParseEvent(line, t, i + 1, out);
  }
  // Old perf (3.x) prints no timestamp: `COMM TID [CPU] EVENT:`. The event is the first token
  // ending in ':' after a thread id; COMM must then be non-empty, or a frame line without
  // indentation (`401234 sym: (dso)`) could pass for a header.
  for (size_t i = 1; i < t.count; ++i) {
    if (!EndsWithColon(t.token[i])) continue;
    PerfHeader candidate;
    if (ParseBeforeAnchor(line, t, i, &candidate) && !candidate.comm.empty() &&
        ParseEvent(line, t, i, &candidate)) {
      *out = candidate;
      return true;
    }
  }
  return false;
}

bool IsPerfFrame(std::string_view trimmed) {
  size_t i = 0;
  while (i < trimmed.size() && i <= 16 && IsHexDigit(trimmed[i])) ++i;
  return i > 0 && i <= 16 && i < trimmed.size() && IsBlank(trimmed[i]);
}

bool ParsePerfFrame(std::string_view line, PerfFrame* out) {
  line = TrimPerfLine(line);
  if (!IsPerfFrame(line)) return false;
  size_t i = 0;
  uint64_t address = 0;
  for (; IsHexDigit(line[i]); ++i) {
    address = (address << 4) | static_cast<uint64_t>(HexValue(line[i]));
  }
  std::string_view rest = TrimPerfLine(line.substr(i));
  out->address = address;
  out->dso = {};
  out->deleted = false;
  // The DSO: the last balanced `(...)` group, preceded by a blank (or opening the rest, when
  // the symbol is empty).
  if (!rest.empty() && rest.back() == ')') {
    int depth = 0;
    size_t open = std::string_view::npos;
    for (size_t k = rest.size(); k-- > 0;) {
      if (rest[k] == ')') {
        ++depth;
      } else if (rest[k] == '(' && --depth == 0) {
        open = k;
        break;
      }
    }
    if (open == std::string_view::npos || (open > 0 && !IsBlank(rest[open - 1]))) {
      // Unbalanced: fall back to the last " (".
      const size_t alt = rest.rfind(" (");
      open = alt == std::string_view::npos ? (rest[0] == '(' ? 0 : alt) : alt + 1;
    }
    if (open != std::string_view::npos) {
      out->dso = rest.substr(open + 1, rest.size() - open - 2);
      rest = TrimPerfLine(rest.substr(0, open));
      constexpr std::string_view kDeleted = " (deleted)";
      if (out->dso.size() > kDeleted.size() &&
          out->dso.substr(out->dso.size() - kDeleted.size()) == kDeleted) {
        out->dso.remove_suffix(kDeleted.size());
        out->deleted = true;
      }
    }
  }
  // A trailing `+0xOFF` (perf >= 4.8) is the offset in the symbol, not part of its name.
  const size_t plus = rest.rfind("+0x");
  if (plus != std::string_view::npos && plus + 3 < rest.size()) {
    bool hex = true;
    for (size_t k = plus + 3; k < rest.size() && hex; ++k) hex = IsHexDigit(rest[k]);
    if (hex) rest = rest.substr(0, plus);
  }
  out->symbol = rest;
  out->unknown_symbol = rest.empty() || rest == "[unknown]";
  out->inlined = out->dso == "inlined";
  out->unknown_dso = out->dso.empty() || out->dso == "[unknown]" || out->inlined;
  return true;
}

bool ParsePerfSrcline(std::string_view line, std::string_view* file, int64_t* line_number,
                      bool* inlined) {
  line = TrimPerfLine(line);
  // With inlined frames perf 6.1 moves the frame's `(inlined)` tag onto its srcline.
  constexpr std::string_view kInlined = " (inlined)";
  *inlined =
      line.size() > kInlined.size() && line.substr(line.size() - kInlined.size()) == kInlined;
  if (*inlined) line = TrimPerfLine(line.substr(0, line.size() - kInlined.size()));
  if (line.empty()) return false;
  const size_t colon = line.rfind(':');
  // `:0`: perf 6.1 prints an empty file name when it knows none (`??:0` elsewhere).
  if (colon != std::string_view::npos && AllDigits(line.substr(colon + 1))) {
    uint64_t n = 0;
    if (!ParseDecimal(line.substr(colon + 1), &n)) return false;
    *file = line.substr(0, colon);
    *line_number = static_cast<int64_t>(n);
    if (*file == "??") *file = {};
    return true;
  }
  // `libc.so.6[27b25]`: no source line, only where in the object.
  const size_t bracket = line.rfind('[');
  if (line.back() == ']' && bracket != std::string_view::npos && bracket > 0) {
    for (size_t k = bracket + 1; k + 1 < line.size(); ++k) {
      if (!IsHexDigit(line[k])) return false;
    }
    *file = {};
    *line_number = 0;
    return true;
  }
  return false;
}

}  // namespace proftools
