// The running kernel's symbols, from /proc/kallsyms (as perf reads them when the recording's
// kernel is the one running): a sorted table of start addresses and names. A kallsyms whose
// addresses are all zero (kptr_restrict) gives no table.
#ifndef PROFTOOLS_COMMON_ELF_KERNEL_SYMBOLS_H_
#define PROFTOOLS_COMMON_ELF_KERNEL_SYMBOLS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

class KernelSymbols {
 public:
  // Reads `path` (a kallsyms file). False when it cannot be read or hides its addresses.
  bool Load(const std::string& path);
  bool empty() const { return entries_.empty(); }
  // The function holding `address`: the last symbol at or below it, when the address is not
  // past the end of the text it covers; "" otherwise. A module's symbol is `name [module]`'s name.
  std::string_view Find(uint64_t address) const;

 private:
  struct Entry {
    uint64_t address;
    uint32_t name_at;  // in text_
    uint32_t name_size;
  };
  std::string text_;            // the file
  std::vector<Entry> entries_;  // by address
};

// The running kernel's build id (/sys/kernel/notes), lower-case hex; "" when it cannot be read.
std::string RunningKernelBuildId();
// The running kernel's release (uname -r).
std::string RunningKernelRelease();

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_KERNEL_SYMBOLS_H_
