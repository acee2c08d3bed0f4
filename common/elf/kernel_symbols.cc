#include "common/elf/kernel_symbols.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>

#include "common/base/strings.h"
#include "common/base/text_syntax.h"

namespace proftools {

bool KernelSymbols::Load(const std::string& path) {
  // Read whole (a /proc file has no size to ask), then parsed in place: the names stay in text_.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode))) {
    close(fd);
    return false;
  }
  text_.clear();
  // The kernel hands /proc/kallsyms out a page at a time: each read appends what it gave (a
  // buffer grown by a chunk per read, zeroed by resize, cost 1 MB of memset a page: 0.1 s).
  constexpr size_t kMaxBytes = size_t{256} << 20;  // no kallsyms is near this
  // Room for a large kallsyms at once (5 MB here): no copy as it grows, and pages are only
  // taken as they are written.
  text_.reserve(size_t{16} << 20);
  char chunk[64 << 10];
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0 || text_.size() + static_cast<size_t>(n) > kMaxBytes) break;
    text_.append(chunk, static_cast<size_t>(n));
  }
  close(fd);
  std::vector<Entry> entries;
  bool any_address = false;
  size_t at = 0;
  while (at < text_.size()) {
    size_t end = text_.find('\n', at);
    if (end == std::string::npos) end = text_.size();
    // `ffffffff81000000 T _text` or `ffffffffc0a01000 t fn\t[module]`.
    const std::string_view line(text_.data() + at, end - at);
    const size_t line_at = at;
    at = end + 1;
    const size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0 || space > 16 || space + 3 > line.size()) {
      continue;
    }
    const char type = static_cast<char>(line[space + 1] | 0x20);
    if (type != 't' && type != 'w') continue;  // functions (and weak ones) only, as perf
    uint64_t address = 0;
    if (!ParseHexDigits(line.substr(0, space), &address)) continue;
    any_address |= address != 0;
    std::string_view name = line.substr(space + 3);
    const size_t tab = name.find('\t');
    if (tab != std::string_view::npos) name = name.substr(0, tab);
    entries.push_back(
        {address, static_cast<uint32_t>(line_at + space + 3), static_cast<uint32_t>(name.size())});
  }
  if (!any_address) return false;
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.address < b.address; });
  entries_ = std::move(entries);
  return true;
}

std::string_view KernelSymbols::Find(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.address; });
  if (it == entries_.begin()) return {};
  --it;
  // Past the last symbol by more than any function's size: not the kernel's text.
  constexpr uint64_t kMaxFunction = uint64_t{1} << 20;
  if (address - it->address > kMaxFunction) return {};
  return std::string_view(text_).substr(it->name_at, it->name_size);
}

std::string RunningKernelBuildId() {
  // /sys/kernel/notes: ELF notes, each {namesz, descsz, type, name (padded), desc (padded)}.
  std::ifstream in("/sys/kernel/notes", std::ios::binary);
  const std::string notes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t at = 0;
  auto padded = [](uint32_t n) { return (static_cast<size_t>(n) + 3) & ~size_t{3}; };
  while (at + 12 <= notes.size()) {
    uint32_t name_size, desc_size, type;
    std::memcpy(&name_size, notes.data() + at, 4);
    std::memcpy(&desc_size, notes.data() + at + 4, 4);
    std::memcpy(&type, notes.data() + at + 8, 4);
    const size_t name_at = at + 12;
    const size_t desc_at = name_at + padded(name_size);
    if (desc_at > notes.size() || padded(desc_size) > notes.size() - desc_at) break;
    constexpr uint32_t kGnuBuildId = 3;
    if (type == kGnuBuildId && name_size == 4 && notes.compare(name_at, 3, "GNU") == 0) {
      return LowerHex(std::string_view(notes).substr(desc_at, desc_size));
    }
    at = desc_at + padded(desc_size);
  }
  return "";
}

std::string RunningKernelRelease() {
  struct utsname name;
  return uname(&name) == 0 ? std::string(name.release) : std::string();
}

}  // namespace proftools
