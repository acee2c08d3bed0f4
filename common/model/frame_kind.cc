#include "common/model/frame_kind.h"
#include "common/base/strings.h"

namespace proftools {
namespace {

constexpr std::string_view kJitFile = "[jit]";
constexpr std::string_view kInterpretedFile = "[interpreted]";
constexpr std::string_view kWakerFile = "[waker]";

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Kernel modules, compressed as distributions ship them or not.
bool IsKernelModule(std::string_view base) {
  return EndsWith(base, ".ko") || EndsWith(base, ".ko.xz") || EndsWith(base, ".ko.zst") ||
         EndsWith(base, ".ko.gz");
}

// perf-PID.map (perf's JIT symbol maps) and jitted-PID-N.so (perf inject --jit).
bool IsJitFile(std::string_view base) {
  if (base.substr(0, 5) == "perf-" && EndsWith(base, ".map")) {
    return AllDigits(base.substr(5, base.size() - 9));
  }
  return base.substr(0, 7) == "jitted-" && base.size() > 10 && EndsWith(base, ".so");
}

}  // namespace

CodeKind CodeKindOfMapping(std::string_view file) {
  if (file.empty() || file == "[unknown]") return CodeKind::kNative;
  if (file == kJitFile) return CodeKind::kJit;
  if (file == kInterpretedFile) return CodeKind::kInterpreted;
  if (file == kWakerFile) return CodeKind::kWaker;
  // Every other bracketed name perf prints is kernel code or a module ([vdso] too, as
  // stackcollapse-perf.pl annotates it).
  if (file.front() == '[') return CodeKind::kKernel;
  const std::string_view base = BaseName(file);
  if (IsKernelModule(base) || base == "vmlinux" || base.substr(0, 8) == "vmlinux-") {
    return CodeKind::kKernel;
  }
  if (IsJitFile(base)) return CodeKind::kJit;
  return CodeKind::kNative;
}

std::string_view MappingFileForKind(CodeKind kind) {
  switch (kind) {
    case CodeKind::kNative:
      return "";
    case CodeKind::kKernel:
      return "[kernel.kallsyms]";
    case CodeKind::kJit:
      return kJitFile;
    case CodeKind::kInterpreted:
      return kInterpretedFile;
    case CodeKind::kWaker:
      return kWakerFile;
  }
  return "";
}

bool LooksLikeExecutable(std::string_view file) {
  if (file.empty() || file[0] == '[' || file.substr(0, 2) == "//" || file.find("memfd:") == 0 ||
      file.find("anon_inode:") == 0) {
    return false;
  }
  const std::string_view base = BaseName(file);
  for (size_t at = base.find(".so"); at != std::string_view::npos; at = base.find(".so", at + 1)) {
    if (at + 3 == base.size() || base[at + 3] == '.') return false;  // lib.so, lib.so.6
  }
  if (CodeKindOfMapping(file) != CodeKind::kNative) return false;
  // A perf map of any name (perf-x.map) is still JIT symbols, not a program.
  return !(base.substr(0, 5) == "perf-" && EndsWith(base, ".map")) &&
         base.substr(0, 7) != "jitted-";
}

const Mapping* MainMapping(const ProfileHeader& header, const Definitions& defs) {
  const std::vector<Mapping>& mappings = defs.mappings.items();
  if (mappings.empty()) return nullptr;
  bool all_perf = !header.sources.empty();
  for (const Source& source : header.sources) all_perf = all_perf && source.type == kPerfSourceType;
  if (all_perf) {
    for (const Mapping& mapping : mappings) {
      if (LooksLikeExecutable(mapping.file)) return &mapping;
    }
  }
  return &mappings.front();
}

}  // namespace proftools
