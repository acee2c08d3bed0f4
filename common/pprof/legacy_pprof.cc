#include "common/pprof/legacy_pprof.h"
#include "common/base/strings.h"

#include <cctype>
#include <cstdint>

namespace proftools {
namespace {

// Reads the `index`th word of `width` bytes (4 or 8) in either byte order.
uint64_t Word(std::string_view head, size_t index, size_t width, bool big_endian) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    const size_t at = index * width + (big_endian ? i : width - 1 - i);
    value = value << 8 | static_cast<unsigned char>(head[at]);
  }
  return value;
}

// gperftools' profilez header: the words 0, 3, 0 (C++) or 1 (Java), the sampling period, 0; in
// 32- or 64-bit words of either byte order, as the profiled machine wrote them.
std::string BinaryCpuProfile(std::string_view head) {
  for (size_t width : {4, 8}) {
    if (head.size() < 5 * width) continue;
    for (bool big_endian : {false, true}) {
      auto word = [&](size_t index) { return Word(head, index, width, big_endian); };
      if (word(0) != 0 || word(1) != 3 || word(3) == 0 || word(4) != 0) continue;
      if (word(2) == 0) return "a gperftools CPU profile (pprof's legacy binary format)";
      if (word(2) == 1) return "a Java CPU profile (pprof's legacy binary format)";
    }
  }
  return "";
}

std::string_view TrimSpace(std::string_view s) {  // isspace: form feeds too
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The first line (without a CR before its newline), and the first line that is neither blank
// nor a '#' comment (pprof skips those before the header of Go's count profiles and of thread
// profiles).
std::string_view FirstLine(std::string_view head) {
  std::string_view line = head.substr(0, head.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view FirstContentLine(std::string_view head) {
  while (!head.empty()) {
    const std::string_view line = FirstLine(head);
    const std::string_view trimmed = TrimSpace(line);
    if (!trimmed.empty() && trimmed.front() != '#') return line;
    const size_t newline = head.find('\n');
    if (newline == std::string_view::npos) break;
    head.remove_prefix(newline + 1);
  }
  return "";
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "heap profile: 1: 2 [3: 4] @ heap/1048576", "... @ heap_v2/524288", "... @ growthz".
std::string HeapProfile(std::string_view line) {
  if (!StartsWith(line, "heap profile:")) return "";
  if (Contains(line, "@ growth")) {
    return "a heap growth profile (pprof's legacy growthz text format)";
  }
  if (Contains(line, "@ fragmentation")) {
    return "a heap fragmentation profile (pprof's legacy text format)";
  }
  if (Contains(line, "heap_v2/")) return "a heap profile (pprof's legacy heap_v2 text format)";
  return "a heap profile (pprof's legacy heapz text format)";
}

// Go's debug=1 count profiles: "goroutine profile: total 12", "threadcreate profile: total 7".
std::string CountProfile(std::string_view line) {
  const size_t space = line.find(' ');
  if (space == 0 || space == std::string_view::npos) return "";
  const std::string_view name = line.substr(0, space);
  std::string_view rest = line.substr(space);
  if (!StartsWith(rest, " profile: total ") || !AllDigits(rest.substr(16))) return "";
  return "a Go " + std::string(name) + " profile (pprof's legacy text format)";
}

std::string ContentionProfile(std::string_view line) {
  if (StartsWith(line, "--- contentionz ")) {
    return "a contention profile (pprof's legacy contentionz text format)";
  }
  if (StartsWith(line, "--- mutex:")) return "a Go mutex profile (pprof's legacy text format)";
  if (StartsWith(line, "--- contention:")) {
    return "a Go block (contention) profile (pprof's legacy text format)";
  }
  return "";
}

std::string ThreadProfile(std::string_view line) {
  const bool threadz = StartsWith(line, "--- threadz ") && Contains(line, " ---");
  const bool thread = StartsWith(line, "--- Thread ") && Contains(line, " stack: ---");
  return threadz || thread ? "a thread profile (pprof's legacy threadz text format)" : "";
}

std::string JavaHeapProfile(std::string_view line) {
  return TrimSpace(line) == "--- heapz 1 ---"
             ? "a Java heap profile (pprof's legacy heapz text format)"
             : "";
}

}  // namespace

std::string LegacyPprofFormat(std::string_view head) {
  std::string format = BinaryCpuProfile(head);
  if (format.empty()) format = HeapProfile(FirstLine(head));
  if (format.empty()) format = CountProfile(FirstContentLine(head));
  if (format.empty()) format = ThreadProfile(FirstContentLine(head));
  if (format.empty()) format = ContentionProfile(FirstLine(head));
  if (format.empty()) format = JavaHeapProfile(FirstLine(head));
  return format;
}

std::string LegacyPprofAdvice(const std::string& format) {
  return "this is " + format +
         ", which only pprof reads: convert it with 'pprof -proto FILE > FILE.pb.gz' and use "
         "FILE.pb.gz";
}

}  // namespace proftools
