// What kind of code a frame is, as proftools keeps it: by the file of the frame's mapping
// (the names perf gives kernel and JIT code), and inlined calls as the non-last lines of a
// location. The one classifier: perf2prof, the folded reader and writer, the reports' palettes
// and the pprof writer all ask it.
#ifndef PROFTOOLS_COMMON_MODEL_FRAME_KIND_H_
#define PROFTOOLS_COMMON_MODEL_FRAME_KIND_H_

#include <cstdint>
#include <string_view>

#include "common/model/definitions.h"

namespace proftools {

enum class CodeKind : uint8_t {
  kNative,       // an object file of the program, or nothing known
  kKernel,       // [kernel.kallsyms], other "[...]" names perf gives (modules), vmlinux, *.ko
  kJit,          // perf-PID.map, jitted-PID-N.so (perf's jitdump), or "[jit]"
  kInterpreted,  // "[interpreted]": a frame run by an interpreter (async-profiler's _[0])
  kWaker,        // "[waker]": a frame of the thread that woke this one (FlameGraph's _[w])
};

// The kind of the code in a mapping whose file is `file` (perf's DSO names, paths).
CodeKind CodeKindOfMapping(std::string_view file);

// The mapping file a producer gives frames of `kind` that have no object file of their own
// ("[kernel.kallsyms]", "[jit]", ...); "" for kNative.
std::string_view MappingFileForKind(CodeKind kind);

// Whether `file` looks like a program rather than a shared library, the kernel or a module,
// JIT code or an anonymous region (pprof takes the first mapping for the program).
bool LooksLikeExecutable(std::string_view file);

// The mapping pprof takes for the profiled program (its "File:" line and a graph's title): the
// first defined, or for a profile whose every source is perf (which names no main binary) the
// first that looks like a program, as prof2pprof orders them. nullptr when there is none.
const Mapping* MainMapping(const ProfileHeader& header, const Definitions& defs);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_FRAME_KIND_H_
