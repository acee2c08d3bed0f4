// What converters from and to other profilers' formats share, so that every codec names things
// alike: the label keys of threads and processes (and a pid or tid read back from a label), a
// path's base name, and unique value-type names. Frame kinds are
// frame_kind.h; stacks given parent-linked are parent_stacks.h.
#ifndef PROFTOOLS_COMMON_MODEL_PRODUCER_KIT_H_
#define PROFTOOLS_COMMON_MODEL_PRODUCER_KIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "common/model/model.h"

namespace proftools {

// Label keys for who ran a sample, as perf2prof has always written them: the command name
// (string), the process and thread ids (numbers), and a thread's name where a profiler gives
// one apart from the command (string); and a process's name where a profiler gives one (the
// Firefox Profiler's processName).
inline constexpr const char* kCommLabel = "comm";
inline constexpr const char* kPidLabel = "pid";
inline constexpr const char* kTidLabel = "tid";
inline constexpr const char* kThreadLabel = "thread";
inline constexpr const char* kProcessLabel = "process";

// The number a label gives for a pid or tid: a numeric label, or a string of digits (writers
// of formats with numeric thread ids read them back so).
inline std::optional<int64_t> LabelNumber(const Label& label) {
  if (label.is_num) return label.num;
  if (label.str.empty() || label.str.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (const char c : label.str) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// What follows a path's last '/': the file name viewers show for a mapping or source file.
inline std::string Basename(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Value-type names made unique in order of declaration: `wanted`, or when an earlier type has
// that name, `wanted.N` with the smallest N >= 2 that is free.
class UniqueTypeNames {
 public:
  std::string Take(const std::string& wanted) {
    std::string name = wanted;
    for (unsigned long n = 2; !taken_.insert(name).second; ++n) {
      name = wanted + "." + std::to_string(n);
    }
    return name;
  }

 private:
  std::unordered_set<std::string> taken_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_PRODUCER_KIT_H_
