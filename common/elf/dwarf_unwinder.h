// Unwinding a user stack that perf sampled with --call-graph dwarf: the user registers and a
// copy of the top of the stack, unwound through the objects' CFI (.eh_frame, .debug_frame) by
// libdwfl's unwinder, as perf's own libdw unwinder does (dwfl_attach_state with callbacks that
// read the sampled registers and stack). The first frame is the sampled address; each caller is
// its return address minus one, inside the call, as perf reports it. Unwinding stops where the
// copy ends, where no object or CFI covers an address, or after kMaxFrames, as perf's does.
//
// One libdwfl session is kept per process, with its objects reported at their runtime
// addresses as the unwinding meets them; a process whose mappings changed under it (an object
// found at an address where another was reported) starts a new session.
#ifndef PROFTOOLS_COMMON_ELF_DWARF_UNWINDER_H_
#define PROFTOOLS_COMMON_ELF_DWARF_UNWINDER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

class DwarfUnwinder {
 public:
  static constexpr size_t kMaxFrames = 127;  // perf's kernel.perf_event_max_stack default

  // An object mapped in the process: where, and the file to read it from (found already).
  struct Region {
    uint64_t start = 0;
    uint64_t limit = 0;
    uint64_t pgoff = 0;
    std::string path;
  };
  using FindRegion = std::function<bool(uint64_t address, Region* region)>;

  // The sampled state: perf's x86-64 user registers (the values of the bits set in `mask`, in
  // bit order, as PERF_SAMPLE_REGS_USER gives them) and the stack copy, which starts at the
  // stack pointer.
  struct Sample {
    int64_t pid = 0;
    int64_t tid = 0;
    std::vector<uint64_t> registers;
    uint64_t mask = 0;
    std::string_view stack;
  };

  DwarfUnwinder();
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  // Whether samples of this machine can be unwound (x86-64 only, for now).
  static bool Supports(std::string_view arch);
  // The program counters of the sample's user stack, innermost first; empty when the
  // registers lack the stack pointer or the instruction pointer.
  void Unwind(const Sample& sample, const FindRegion& find_region, std::vector<uint64_t>* pcs);

  struct Process;  // public for the .cc's callbacks

 private:
  Process* SessionOf(int64_t pid);
  std::map<int64_t, std::unique_ptr<Process>> processes_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_ELF_DWARF_UNWINDER_H_
