#include "common/elf/kernel_symbols.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>

#include "common/base/strings.h"

namespace proftools {

bool KernelSymbols::Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return false;
  std::vector<std::pair<uint64_t, std::string>> symbols;
  std::string line;
  bool any_address = false;
  while (std::getline(in, line)) {
    // `ffffffff81000000 T _text` or `ffffffffc0a01000 t fn\t[module]`.
    const size_t space = line.find(' ');
    if (space == std::string::npos || space + 3 > line.size()) continue;
    const char type = static_cast<char>(line[space + 1] | 0x20);
    if (type != 't' && type != 'w') continue;  // functions (and weak ones) only, as perf
    uint64_t address = 0;
    bool ok = space > 0 && space <= 16;
    for (size_t i = 0; ok && i < space; ++i) {
      const char c = line[i];
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      ok = digit >= 0;
      address = address << 4 | static_cast<uint64_t>(digit < 0 ? 0 : digit);
    }
    if (!ok) continue;
    any_address |= address != 0;
    std::string name = line.substr(space + 3);
    const size_t tab = name.find('\t');
    if (tab != std::string::npos) name.resize(tab);
    symbols.emplace_back(address, std::move(name));
  }
  if (!any_address) return false;
  std::stable_sort(symbols.begin(), symbols.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& symbol : symbols) {
    starts_.push_back(symbol.first);
    names_.push_back(std::move(symbol.second));
  }
  return true;
}

std::string_view KernelSymbols::Find(uint64_t address) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), address);
  if (it == starts_.begin()) return {};
  const size_t index = static_cast<size_t>(it - starts_.begin()) - 1;
  // Past the last symbol by more than any function's size: not the kernel's text.
  constexpr uint64_t kMaxFunction = uint64_t{1} << 20;
  if (address - starts_[index] > kMaxFunction) return {};
  return names_[index];
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
