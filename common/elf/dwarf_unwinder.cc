#include "common/elf/dwarf_unwinder.h"

#include <elfutils/libdwfl.h>

#include <cstring>

#include "common/elf/debug_file_search.h"

namespace proftools {
namespace {

// perf's x86-64 register numbers (PERF_REG_X86_*) of DWARF's registers 0..16: rax, rdx, rcx,
// rbx, rsi, rdi, rbp, rsp, r8..r15, and the return address column, rip.
constexpr int kPerfOfDwarf[17] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8};
constexpr int kPerfSp = 7;
constexpr int kPerfIp = 8;

}  // namespace

struct DwarfUnwinder::Process {
  Dwfl_Callbacks callbacks = {};
  Dwfl_Thread_Callbacks thread_callbacks = {};
  Dwfl* dwfl = nullptr;
  bool attached = false;
  // The sample being unwound, for the callbacks.
  const Sample* sample = nullptr;
  const FindRegion* find_region = nullptr;
  uint64_t sp = 0;
  Dwarf_Word registers[17] = {};
  std::vector<uint64_t>* pcs = nullptr;
  bool stale = false;  // an object was found where another one was reported

  ~Process() {
    if (dwfl != nullptr) dwfl_end(dwfl);
  }

  // Reports the object holding `pc`, unless one is reported there. False when none holds it.
  bool Report(uint64_t pc) {
    Region region;
    if (!(*find_region)(pc, &region)) return false;
    const Dwarf_Addr base = region.start - region.pgoff;
    if (Dwfl_Module* module = dwfl_addrmodule(dwfl, pc)) {
      Dwarf_Addr low = 0;
      const char* name =
          dwfl_module_info(module, nullptr, &low, nullptr, nullptr, nullptr, nullptr, nullptr);
      if (name != nullptr && region.path == name) return true;
      stale = true;  // another object was mapped here since
      return false;
    }
    dwfl_report_begin_add(dwfl);
    Dwfl_Module* module =
        dwfl_report_elf(dwfl, region.path.c_str(), region.path.c_str(), -1, base, false);
    dwfl_report_end(dwfl, nullptr, nullptr);
    if (module != nullptr) DebugFileSearch::Default().Attach(module);
    return module != nullptr;
  }
};

namespace {

using Process = DwarfUnwinder::Process;

pid_t NextThread(Dwfl*, void* arg, void** thread_arg) {
  auto* process = static_cast<Process*>(arg);
  if (*thread_arg != nullptr) return 0;
  *thread_arg = arg;
  return static_cast<pid_t>(process->sample->tid);
}

bool GetThread(Dwfl*, pid_t tid, void* arg, void** thread_arg) {
  auto* process = static_cast<Process*>(arg);
  *thread_arg = arg;
  return tid == static_cast<pid_t>(process->sample->tid);
}

// Only the sampled copy of the stack is memory here.
bool MemoryRead(Dwfl*, Dwarf_Addr address, Dwarf_Word* result, void* arg) {
  auto* process = static_cast<Process*>(arg);
  const std::string_view stack = process->sample->stack;
  if (address < process->sp || stack.size() < 8 || address - process->sp > stack.size() - 8) {
    return false;
  }
  std::memcpy(result, stack.data() + (address - process->sp), 8);
  return true;
}

bool SetInitialRegisters(Dwfl_Thread* thread, void* arg) {
  auto* process = static_cast<Process*>(arg);
  return dwfl_thread_state_registers(thread, 0, 17, process->registers);
}

int OnFrame(Dwfl_Frame* frame, void* arg) {
  auto* process = static_cast<Process*>(arg);
  Dwarf_Addr pc = 0;
  if (!dwfl_frame_pc(frame, &pc, nullptr)) return DWARF_CB_ABORT;
  // The object must be reported before libdwfl can say whether the frame is an activation
  // and find its caller's CFI.
  process->Report(pc);
  bool activation = false;
  if (!dwfl_frame_pc(frame, &pc, &activation)) return DWARF_CB_ABORT;
  process->pcs->push_back(activation ? pc : pc - 1);
  return process->pcs->size() >= DwarfUnwinder::kMaxFrames ? DWARF_CB_ABORT : DWARF_CB_OK;
}

}  // namespace

DwarfUnwinder::DwarfUnwinder() = default;
DwarfUnwinder::~DwarfUnwinder() = default;

bool DwarfUnwinder::Supports(std::string_view arch) {
  return arch == "x86_64";
}

DwarfUnwinder::Process* DwarfUnwinder::SessionOf(int64_t pid) {
  std::unique_ptr<Process>& slot = processes_[pid];
  if (slot != nullptr && !slot->stale) return slot.get();
  slot = std::make_unique<Process>();
  slot->callbacks.find_elf = dwfl_build_id_find_elf;
  slot->callbacks.find_debuginfo = DebugFileSearch::FindDebuginfo;
  slot->thread_callbacks.next_thread = NextThread;
  slot->thread_callbacks.get_thread = GetThread;
  slot->thread_callbacks.memory_read = MemoryRead;
  slot->thread_callbacks.set_initial_registers = SetInitialRegisters;
  slot->dwfl = dwfl_begin(&slot->callbacks);
  return slot->dwfl != nullptr ? slot.get() : nullptr;
}

void DwarfUnwinder::Unwind(const Sample& sample, const FindRegion& find_region,
                           std::vector<uint64_t>* pcs) {
  pcs->clear();
  // The registers by perf's numbers, from the mask's bits in order.
  uint64_t by_perf_number[64] = {};
  bool present[64] = {};
  size_t next = 0;
  for (int bit = 0; bit < 64 && next < sample.registers.size(); ++bit) {
    if ((sample.mask >> bit & 1) == 0) continue;
    by_perf_number[bit] = sample.registers[next++];
    present[bit] = true;
  }
  if (!present[kPerfSp] || !present[kPerfIp]) return;
  for (int attempt = 0; attempt < 2; ++attempt) {
    Process* process = SessionOf(sample.pid);
    if (process == nullptr) return;
    process->sample = &sample;
    process->find_region = &find_region;
    process->sp = by_perf_number[kPerfSp];
    process->pcs = pcs;
    for (int r = 0; r < 17; ++r) process->registers[r] = by_perf_number[kPerfOfDwarf[r]];
    const uint64_t ip = by_perf_number[kPerfIp];
    if (!process->Report(ip) && !process->stale) {
      pcs->push_back(ip);  // no object there: the address alone, as perf gives it
      return;
    }
    if (!process->stale && !process->attached) {
      process->attached = dwfl_attach_state(process->dwfl, nullptr, static_cast<pid_t>(sample.pid),
                                            &process->thread_callbacks, process);
    }
    if (!process->stale && process->attached) {
      pcs->clear();
      dwfl_getthread_frames(process->dwfl, static_cast<pid_t>(sample.tid), OnFrame, process);
    }
    if (!process->stale) break;
    pcs->clear();  // the process's mappings changed: once more, in a new session
  }
  if (pcs->empty()) pcs->push_back(by_perf_number[kPerfIp]);
}

}  // namespace proftools
