#include "common/folded/folded_syntax.h"

#include <cstring>
#include <limits>

#include "common/base/strings.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Decimal digits to int64, false when they do not fit.
bool DigitsToInt(std::string_view digits, int64_t* out) {
  uint64_t value = 0;
  for (char c : digits) {
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / 10) return false;
    value = value * 10 + d;
  }
  *out = static_cast<int64_t>(value);
  return true;
}

std::string_view TrimBlanksRight(std::string_view s) {
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

// The last blank-separated token of `s` (which has no trailing blanks) and what is before it
// without the one blank that separates them: as FlameGraph's `^(.*)\s+?(\d+(?:\.\d*)?)$`, a
// frame may end with blanks of its own.
std::string_view LastToken(std::string_view s, std::string_view* before) {
  size_t i = s.size();
  while (i > 0 && !IsBlank(s[i - 1])) --i;
  *before = s.substr(0, i == 0 ? 0 : i - 1);
  return s.substr(i);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool LooksLikeFoldedValue(std::string_view token) {
  const size_t dot = token.find('.');
  if (dot == std::string_view::npos) return AllDigits(token);
  // FlameGraph's \d+(?:\.\d*)?: "5." is a value too.
  return AllDigits(token.substr(0, dot)) &&
         (dot + 1 == token.size() || AllDigits(token.substr(dot + 1)));
}

bool SplitFoldedLine(std::string_view line, int value_count, FoldedLine* out, std::string* why) {
  line = TrimBlanksRight(line);
  std::string_view rest;
  const std::string_view last = LastToken(line, &rest);
  if (rest.empty()) {
    *why = last.empty()                 ? "an empty line"
           : LooksLikeFoldedValue(last) ? "a value without a stack"
                                        : "no value at the end of the line";
    return false;
  }
  if (!LooksLikeFoldedValue(last)) {
    // A count below zero is no count (FlameGraph's value is \d+); say so rather than "no value".
    *why = last.size() > 1 && last[0] == '-' && LooksLikeFoldedValue(last.substr(1))
               ? "a negative value: counts are never below 0"
               : "no value at the end of the line";
    return false;
  }
  std::string_view stack;
  const std::string_view previous = value_count == 1 ? "" : LastToken(rest, &stack);
  const bool two =
      value_count == 2 || (value_count == 0 && !stack.empty() && LooksLikeFoldedValue(previous));
  if (!two) {
    out->stack = rest;
    out->values[0] = last;
    out->value_count = 1;
    return true;
  }
  if (stack.empty() || !LooksLikeFoldedValue(previous)) {
    *why = "two values expected (`stack BEFORE AFTER`, as the input's first line has)";
    return false;
  }
  out->stack = stack;
  out->values[0] = previous;
  out->values[1] = last;
  out->value_count = 2;
  return true;
}

bool ParseFoldedValue(std::string_view token, int64_t* mantissa, int* decimals, std::string* why) {
  if (!token.empty() && token[0] == '-') {
    *why = "a negative value";
    return false;
  }
  if (!LooksLikeFoldedValue(token)) {
    *why = "not a value";
    return false;
  }
  const size_t dot = token.find('.');
  std::string_view fraction;
  if (dot != std::string_view::npos) {
    fraction = token.substr(dot + 1);
    token = token.substr(0, dot);
    while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  }
  if (fraction.size() > 18) {
    *why = "more than 18 decimal places";
    return false;
  }
  int64_t whole = 0, part = 0;
  int64_t scale = 1;
  for (size_t i = 0; i < fraction.size(); ++i) scale *= 10;
  if (!DigitsToInt(token, &whole) || !DigitsToInt(fraction, &part) ||
      whole > (std::numeric_limits<int64_t>::max() - part) / scale) {
    *why = "a value too large for a 64-bit integer";
    return false;
  }
  *mantissa = whole * scale + part;
  *decimals = static_cast<int>(fraction.size());
  return true;
}

std::string_view StripAnnotations(std::string_view frame, FrameAnnotation* annotation) {
  *annotation = FrameAnnotation{};
  for (int n = 0; n < 2; ++n) {
    if (frame.size() < 5 || frame.compare(frame.size() - 4, 2, "_[") != 0 || frame.back() != ']') {
      break;
    }
    switch (frame[frame.size() - 2]) {
      case 'k':
        annotation->kind = CodeKind::kKernel;
        break;
      case 'j':
      case '1':  // async-profiler: C1-compiled
        annotation->kind = CodeKind::kJit;
        break;
      case '0':  // async-profiler: interpreted
        annotation->kind = CodeKind::kInterpreted;
        break;
      case 'w':
        annotation->kind = CodeKind::kWaker;
        break;
      case 'i':
        annotation->inlined = true;
        break;
      default:
        return frame;
    }
    frame.remove_suffix(4);
  }
  return frame;
}

std::string UnescapeFoldedFrame(std::string_view frame) {
  std::string out;
  out.reserve(frame.size());
  for (size_t i = 0; i < frame.size(); ++i) {
    const char c = frame[i];
    if (c != '\\' || i + 1 == frame.size()) {
      out.push_back(c);
      continue;
    }
    const char next = frame[i + 1];
    if (next == '\\') {
      out.push_back('\\');
    } else if (next == 'n') {
      out.push_back('\n');
    } else if (next == 'r') {
      out.push_back('\r');
    } else if (next == 't') {
      out.push_back('\t');
    } else if (next == 'x' && i + 3 < frame.size() && HexDigit(frame[i + 2]) >= 0 &&
               HexDigit(frame[i + 3]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(frame[i + 2]) * 16 + HexDigit(frame[i + 3])));
      i += 2;
    } else {
      out.push_back(c);  // not an escape of ours: literal
      continue;
    }
    ++i;
  }
  return out;
}

bool SplitPythonFrame(std::string_view frame, std::string_view* function, std::string_view* file,
                      int64_t* line) {
  if (frame.size() < 6 || frame.back() != ')') return false;
  const size_t open = frame.rfind(" (");
  if (open == std::string_view::npos || open == 0) return false;
  const std::string_view inside = frame.substr(open + 2, frame.size() - open - 3);
  const size_t colon = inside.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view path = inside.substr(0, colon);
  if (path.find_first_of("()") != std::string_view::npos) return false;
  if (!AllDigits(inside.substr(colon + 1)) || !DigitsToInt(inside.substr(colon + 1), line)) {
    return false;
  }
  *function = frame.substr(0, open);
  *file = path;
  return true;
}

bool PythonThreadLabels(std::string_view frame, std::vector<Label>* labels) {
  // py-spy --threads: `thread (ID)`, ID the OS thread id in decimal, or a pthread id in hex
  // where it has none; a thread name may follow.
  if (!StartsWith(frame, "thread (")) return false;
  const size_t close = frame.find(')');
  if (close == std::string_view::npos) return false;
  const std::string_view id = frame.substr(8, close - 8);
  std::string_view name = frame.substr(close + 1);
  if (StartsWith(name, ":")) name.remove_prefix(1);
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  int64_t tid = 0;
  if (AllDigits(id) && DigitsToInt(id, &tid)) {
    labels->push_back(Label::Number(kTidLabel, tid));
  } else if (id.size() > 2 && (StartsWith(id, "0x") || StartsWith(id, "0X"))) {
    if (name.empty()) name = id;  // a pthread id names the thread; it is not a tid
  } else {
    return false;
  }
  if (!name.empty()) labels->push_back(Label::String(kThreadLabel, std::string(name)));
  return true;
}

std::vector<Label> ThreadRootLabels(std::string_view frame, bool* py_spy_process) {
  *py_spy_process = false;
  std::vector<Label> labels;
  int64_t number = 0;
  // async-profiler --threads: [NAME tid=N]
  if (frame.size() > 7 && frame.front() == '[' && frame.back() == ']') {
    const size_t at = frame.rfind(" tid=");
    if (at != std::string_view::npos &&
        DigitsToInt(frame.substr(at + 5, frame.size() - at - 6), &number) &&
        AllDigits(frame.substr(at + 5, frame.size() - at - 6))) {
      labels.push_back(Label::String(kThreadLabel, std::string(frame.substr(1, at - 1))));
      labels.push_back(Label::Number(kTidLabel, number));
      return labels;
    }
  }
  // py-spy --subprocesses: process N:"CMD"
  if (StartsWith(frame, "process ")) {
    const size_t colon = frame.find(':');
    if (colon != std::string_view::npos && AllDigits(frame.substr(8, colon - 8)) &&
        DigitsToInt(frame.substr(8, colon - 8), &number)) {
      std::string_view command = frame.substr(colon + 1);
      if (command.size() >= 2 && command.front() == '"' && command.back() == '"') {
        command = command.substr(1, command.size() - 2);
      }
      labels.push_back(Label::String(kCommLabel, std::string(command)));
      labels.push_back(Label::Number(kPidLabel, number));
      *py_spy_process = true;
      return labels;
    }
  }
  if (PythonThreadLabels(frame, &labels)) return labels;
  // stackcollapse-perf.pl: COMM, COMM-PID (--pid), COMM-PID/TID (--tid); PID is `?` when perf
  // printed no pid.
  const size_t dash = frame.rfind('-');
  if (dash != std::string_view::npos && dash > 0) {
    const std::string_view ids = frame.substr(dash + 1);
    const size_t slash = ids.find('/');
    const std::string_view pid = ids.substr(0, slash);
    const std::string_view tid = slash == std::string_view::npos ? "" : ids.substr(slash + 1);
    const bool pid_ok = pid == "?" || AllDigits(pid);
    const bool tid_ok = slash == std::string_view::npos || AllDigits(tid);
    int64_t pid_value = 0, tid_value = 0;
    if (pid_ok && tid_ok && (pid == "?" || DigitsToInt(pid, &pid_value)) &&
        (tid.empty() || DigitsToInt(tid, &tid_value))) {
      labels.push_back(Label::String(kCommLabel, std::string(frame.substr(0, dash))));
      if (pid != "?") labels.push_back(Label::Number(kPidLabel, pid_value));
      if (!tid.empty()) labels.push_back(Label::Number(kTidLabel, tid_value));
      return labels;
    }
  }
  labels.push_back(Label::String(kCommLabel, std::string(frame)));
  return labels;
}

}  // namespace proftools
