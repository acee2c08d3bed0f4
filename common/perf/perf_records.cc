#include "common/perf/perf_records.h"

#include <string>

#include "common/base/text_syntax.h"

namespace proftools {
namespace {

constexpr std::string_view kPrefix = "PERF_RECORD_";

// Removes `prefix` from the front of `s`; false when it is not there.
bool Consume(std::string_view* s, std::string_view prefix) {
  if (s->substr(0, prefix.size()) != prefix) return false;
  s->remove_prefix(prefix.size());
  return true;
}

// Up to (not including) `delimiter`, consumed with the delimiter.
bool Until(std::string_view* s, char delimiter, std::string_view* piece) {
  const size_t at = s->find(delimiter);
  if (at == std::string_view::npos) return false;
  *piece = s->substr(0, at);
  s->remove_prefix(at + 1);
  return true;
}

// The body of an MMAP or MMAP2 record, after the kind.
bool ParseMmap(std::string_view body, PerfRecordLine* out) {
  std::string_view piece;
  if (!Until(&body, '/', &piece) || !ParsePerfInteger(piece, &out->pid)) return false;
  if (!Until(&body, ':', &piece) || !ParsePerfInteger(piece, &out->tid)) return false;
  if (!Consume(&body, " [") || !Until(&body, '(', &piece) || !ParseHexDigits(piece, &out->start)) {
    return false;
  }
  if (!Until(&body, ')', &piece) || !ParseHexDigits(piece, &out->length)) return false;
  if (!Consume(&body, " @ ")) return false;
  const size_t end = body.find("]: ");
  if (end == std::string_view::npos) return false;
  std::string_view inside = body.substr(0, end);
  body.remove_prefix(end + 3);
  const size_t blank = inside.find(' ');
  if (!ParseHexDigits(inside.substr(0, blank), &out->pgoff)) return false;
  out->build_id = {};
  if (blank != std::string_view::npos) {
    const std::string_view extra = inside.substr(blank + 1);
    if (extra.size() > 2 && extra.front() == '<' && extra.back() == '>') {
      out->build_id = extra.substr(1, extra.size() - 2);
    }
  }
  // PROT (`r-xp`, or one letter for MMAP), then the file, which may hold blanks.
  const size_t space = body.find(' ');
  if (space == std::string_view::npos) return false;
  out->file = TrimPerfLine(body.substr(space + 1));
  return !out->file.empty() && out->length > 0;
}

}  // namespace

bool MayBePerfRecord(std::string_view trimmed) {
  return trimmed.find(kPrefix) != std::string_view::npos;
}

bool ParsePerfRecord(std::string_view line, PerfRecordLine* out) {
  line = TrimPerfLine(line);
  const size_t at = line.find(kPrefix);
  if (at == std::string_view::npos || at == 0 || line[at - 1] != ' ') return false;
  // What comes before is a header up to the time: parse it with a placeholder event.
  std::string head(line.substr(0, at));
  head += "record:";
  PerfHeader header;
  if (!ParsePerfHeader(head, &header)) return false;
  // Nothing of an earlier record stays: its views may point into bytes that are gone.
  *out = PerfRecordLine();
  out->header = header;
  if (!header.comm.empty()) {  // a view into `head`, which holds the same bytes as `line`
    out->header.comm =
        line.substr(static_cast<size_t>(header.comm.data() - head.data()), header.comm.size());
  }
  out->header.event = {};
  out->header.rest = {};
  std::string_view rest = line.substr(at + kPrefix.size());
  const size_t blank = rest.find(' ');
  const std::string_view kind = rest.substr(0, blank);
  const std::string_view body =
      blank == std::string_view::npos ? std::string_view() : TrimPerfLine(rest.substr(blank + 1));
  out->kind = PerfRecordLine::Kind::kOther;
  if (kind == "MMAP" || kind == "MMAP2") {
    if (!ParseMmap(body, out)) return false;
    out->kind = PerfRecordLine::Kind::kMmap;
  } else if (kind.substr(0, 5) == "EXIT(") {
    // `EXIT(pid:tid):(ppid:ptid)` (--show-task-events): the thread ends there.
    std::string_view ids = kind.substr(5);
    std::string_view piece;
    if (!Until(&ids, ':', &piece) || !ParsePerfInteger(piece, &out->pid) ||
        !Until(&ids, ')', &piece) || !ParsePerfInteger(piece, &out->tid)) {
      return false;
    }
    out->kind = PerfRecordLine::Kind::kExit;
  } else if (kind == "SWITCH" || kind == "SWITCH_CPU_WIDE") {
    // `SWITCH IN`, `SWITCH OUT preempt`, `SWITCH_CPU_WIDE OUT  next pid/tid: ...`.
    if (body.substr(0, 2) == "IN") {
      out->kind = PerfRecordLine::Kind::kSwitchIn;
    } else if (body.substr(0, 3) == "OUT") {
      out->kind = PerfRecordLine::Kind::kSwitchOut;
    }
  }
  return !kind.empty();
}

}  // namespace proftools
