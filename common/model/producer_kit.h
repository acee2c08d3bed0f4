// What converters from other profilers' formats share, so that every codec names things alike:
// the label keys of threads and processes, and unique value-type names. Frame kinds are
// frame_kind.h; stacks given parent-linked are parent_stacks.h.
#ifndef PROFTOOLS_COMMON_MODEL_PRODUCER_KIT_H_
#define PROFTOOLS_COMMON_MODEL_PRODUCER_KIT_H_

#include <string>
#include <unordered_set>

namespace proftools {

// Label keys for who ran a sample, as perf2prof has always written them: the command name
// (string), the process and thread ids (numbers), and a thread's name where a profiler gives
// one apart from the command (string).
inline constexpr const char* kCommLabel = "comm";
inline constexpr const char* kPidLabel = "pid";
inline constexpr const char* kTidLabel = "tid";
inline constexpr const char* kThreadLabel = "thread";

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
