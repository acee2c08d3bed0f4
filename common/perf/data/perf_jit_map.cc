#include "common/perf/data/perf_jit_map.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "common/base/text_syntax.h"

namespace proftools {
bool IsPerfJitMap(std::string_view file) {
  constexpr std::string_view kPrefix = "/tmp/perf-";
  constexpr std::string_view kSuffix = ".map";
  return file.size() > kPrefix.size() + kSuffix.size() &&
         file.substr(0, kPrefix.size()) == kPrefix &&
         file.substr(file.size() - kSuffix.size()) == kSuffix;
}

bool PerfJitMap::Load(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return false;
  }
  std::string text;
  char buffer[1 << 16];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0 && text.size() < kMaxBytes;) {
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const size_t first = line.find(' ');
    if (first == std::string_view::npos) continue;
    const size_t second = line.find(' ', first + 1);
    if (second == std::string_view::npos) continue;
    uint64_t start = 0, size = 0;
    if (!ParseHexDigits(line.substr(0, first), &start) ||
        !ParseHexDigits(line.substr(first + 1, second - first - 1), &size) || size == 0 ||
        start + size < start) {
      continue;
    }
    std::string_view name = line.substr(second + 1);
    if (!name.empty() && name.back() == '\r') name.remove_suffix(1);
    if (name.empty()) continue;
    functions_.push_back({start, start + size, functions_.size(), std::string(name)});
    longest_ = std::max(longest_, size);
  }
  std::sort(functions_.begin(), functions_.end(), [](const Function& a, const Function& b) {
    return a.start != b.start ? a.start < b.start : a.order < b.order;
  });
  return true;
}

std::string_view PerfJitMap::Find(uint64_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address,
                             [](uint64_t a, const Function& f) { return a < f.start; });
  const Function* best = nullptr;
  while (it != functions_.begin()) {
    --it;
    if (address - it->start >= longest_) break;
    if (address < it->end && (best == nullptr || it->order > best->order)) best = &*it;
  }
  return best != nullptr ? std::string_view(best->name) : std::string_view();
}

}  // namespace proftools
