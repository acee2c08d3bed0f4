#include "common/rprof/rprof_syntax.h"

#include <algorithm>

#include <cstring>
#include <limits>

namespace proftools {
namespace {

inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

inline bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Parses the decimal digits at text[*pos...] into *out, advancing *pos. False when there is no
// digit or the number does not fit in uint64.
bool ParseDigits(std::string_view text, size_t* pos, uint64_t* out) {
  const size_t start = *pos;
  uint64_t value = 0;
  size_t i = start;
  for (; i < text.size() && IsDigit(text[i]); ++i) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  if (i == start) return false;
  *pos = i;
  *out = value;
  return true;
}

// Parses `k#l` at text[*pos...]; advances *pos past it. k must be >= 1 and l fit in int64.
bool ParseSrcref(std::string_view text, size_t* pos, RprofSrcref* out) {
  size_t i = *pos;
  uint64_t file = 0;
  uint64_t line = 0;
  if (!ParseDigits(text, &i, &file) || file == 0) return false;
  if (i >= text.size() || text[i] != '#') return false;
  ++i;
  if (!ParseDigits(text, &i, &line)) return false;
  if (line > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
  out->file = file;
  out->line = static_cast<int64_t>(line);
  *pos = i;
  return true;
}

// True when the rest of `text` from `pos` is digits and '#' only, starting with a digit: a
// srcref cut short by the end of the line.
bool CutSrcrefAt(std::string_view text, size_t pos) {
  return pos < text.size() && IsDigit(text[pos]) &&
         text.find_first_not_of("0123456789#", pos) == std::string_view::npos;
}

// True when a srcref token (`k#l` followed by a space or the end, or a srcref cut short) starts
// at text[pos].
bool SrcrefTokenAt(std::string_view text, size_t pos) {
  RprofSrcref ignored;
  const size_t start = pos;
  return (ParseSrcref(text, &pos, &ignored) && (pos == text.size() || text[pos] == ' ')) ||
         CutSrcrefAt(text, start);
}

// The quote that closes a name whose text goes on at text[from...]: the first quote followed by
// the end of the text, or by a space and then the end, a quote or a srcref token (other quotes
// are part of the name). npos when the name is still open at the end of the text. Sets
// *quote_space when a quote and a space inside the name were passed over.
size_t FindNameClose(std::string_view text, size_t from, bool* quote_space) {
  const size_t n = text.size();
  for (size_t q = from; q < n; ++q) {
    const void* found = std::memchr(text.data() + q, '"', n - q);
    if (found == nullptr) break;
    q = static_cast<size_t>(static_cast<const char*>(found) - text.data());
    if (q + 1 == n) return q;
    if (text[q + 1] != ' ') continue;
    if (q + 2 == n || text[q + 2] == '"' || SrcrefTokenAt(text, q + 2)) return q;
    *quote_space = true;
  }
  return std::string_view::npos;
}

}  // namespace

bool ParseRprofHeader(std::string_view line, RprofHeader* out) {
  if (line.empty() || !IsAsciiLetter(line[0])) return false;
  if (line.find('"') != std::string_view::npos) return false;
  static constexpr std::string_view kKey = "sample.interval=";
  const size_t key = line.find(kKey);
  if (key == std::string_view::npos) return false;
  size_t pos = key + kKey.size();
  uint64_t interval = 0;
  if (!ParseDigits(line, &pos, &interval)) return false;
  // Values are written as nanoseconds (interval * 1000) in int64.
  if (interval > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / 1000) return false;
  const std::string_view prefixes = line.substr(0, key);
  out->text.assign(line.data(), line.size());
  out->interval_us = interval;
  out->memory = prefixes.find("memory profiling:") != std::string_view::npos;
  out->gc = prefixes.find("GC profiling:") != std::string_view::npos;
  out->lines = prefixes.find("line profiling:") != std::string_view::npos;
  return true;
}

bool ParseRprofFileLine(std::string_view line, uint64_t* number, std::string_view* path) {
  static constexpr std::string_view kPrefix = "#File ";
  if (line.substr(0, kPrefix.size()) != kPrefix) return false;
  size_t pos = kPrefix.size();
  if (!ParseDigits(line, &pos, number) || *number == 0) return false;
  if (pos >= line.size() || line[pos] != ':') return false;
  ++pos;
  // R writes "#File k: path"; the space is part of the separator, the rest is the path.
  if (pos < line.size() && line[pos] == ' ') ++pos;
  *path = line.substr(pos);
  return true;
}

RprofLineKind ClassifyRprofLine(std::string_view line) {
  if (line.empty()) return RprofLineKind::kOther;
  const char c = line[0];
  if (c == ':' || c == '"' || IsDigit(c)) return RprofLineKind::kSample;
  if (c == '#') {
    return line.substr(0, 6) == "#File " ? RprofLineKind::kFile : RprofLineKind::kOther;
  }
  RprofHeader header;
  if (ParseRprofHeader(line, &header)) return RprofLineKind::kHeader;
  return RprofLineKind::kOther;
}

RprofPrefix ParseRprofMemoryPrefix(std::string_view line, RprofMemory* out, size_t* length) {
  if (line.empty() || line[0] != ':') return RprofPrefix::kNone;
  uint64_t fields[4];
  size_t pos = 1;
  for (uint64_t& field : fields) {
    if (!ParseDigits(line, &pos, &field)) return RprofPrefix::kMalformed;
    if (pos >= line.size() || line[pos] != ':') return RprofPrefix::kMalformed;
    ++pos;
  }
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  // small_v and big_v become bytes (x8); every value must stay an int64.
  if (fields[0] > kMax / 8 || fields[1] > kMax / 8 || fields[2] > kMax || fields[3] > kMax) {
    return RprofPrefix::kMalformed;
  }
  out->small_v = fields[0];
  out->big_v = fields[1];
  out->nodes = fields[2];
  out->dup_count = fields[3];
  *length = pos;
  return RprofPrefix::kValid;
}

void RprofStackText::Clear() {
  frames.clear();
  trailing = RprofSrcref();
  end = RprofLineEnd::kComplete;
  garbage_offset = 0;
  quote_space_in_name = false;
  empty_name = false;
}

void ParseRprofStack(std::string_view text, RprofStackText* out) {
  out->Clear();
  const size_t n = text.size();
  // Every frame takes 3 bytes at least ("f" and a space): a long line's frames get their room
  // at once (a line of a million frames grew the vector twenty times).
  if (n / 3 > out->frames.capacity() && n > 4096) {
    out->frames.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '"')) / 2);
  }
  size_t pos = 0;
  RprofSrcref pending;       // a srcref waiting for the frame it belongs to
  size_t pending_start = 0;  // where that srcref's text starts
  while (pos < n) {
    const char c = text[pos];
    if (c == '"') {
      const size_t close = FindNameClose(text, pos + 1, &out->quote_space_in_name);
      if (close == std::string_view::npos) {
        out->end = RprofLineEnd::kOpenQuote;
        break;  // the unfinished frame is not a frame; its srcref becomes the trailing one
      }
      RprofFrame frame;
      frame.name = text.substr(pos + 1, close - pos - 1);
      frame.srcref = pending;
      const size_t span_start = pending.present() ? pending_start : pos;
      frame.span = text.substr(span_start, close + 1 - span_start);
      if (frame.name.empty()) out->empty_name = true;
      out->frames.push_back(frame);
      pending = RprofSrcref();
      if (close + 1 == n) {
        out->end = RprofLineEnd::kCut;  // the name is closed, but the line lacks its space
        pos = n;
        break;
      }
      pos = close + 2;
      continue;
    }
    if (IsDigit(c) && !pending.present()) {
      size_t end = pos;
      RprofSrcref srcref;
      if (ParseSrcref(text, &end, &srcref) && end < n && text[end] == ' ') {
        pending = srcref;
        pending_start = pos;
        pos = end + 1;
        continue;
      }
      // Only digits and '#' up to the end: a srcref cut short (its number may be incomplete).
      if (CutSrcrefAt(text, pos)) {
        out->end = RprofLineEnd::kCut;
        break;
      }
    }
    out->end = RprofLineEnd::kGarbage;
    out->garbage_offset = pos;
    break;
  }
  // A srcref followed by no frame: after the outermost frame, or before a frame that is lost.
  out->trailing = pending;
}

bool RprofStillInsideName(std::string_view more) {
  // A quote already passed over stays part of the name whatever follows the text: each test of
  // FindNameClose that depends on the end of the text (a quote or `" ` or `" 12#` at the very
  // end) closes the name. So only `more` can close it; after that close, a new token starts.
  bool ignored = false;
  const size_t close = FindNameClose(more, 0, &ignored);
  if (close == std::string_view::npos) return true;
  if (close + 1 == more.size()) return false;
  RprofStackText rest;
  ParseRprofStack(more.substr(close + 2), &rest);
  return rest.end == RprofLineEnd::kOpenQuote;
}

}  // namespace proftools
