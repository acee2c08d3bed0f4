// A JIT's perf map, /tmp/perf-PID.map (V8's --perf-basic-prof, the JVM's perf-map-agent,
// .NET's DOTNET_PerfMapEnabled): one line per compiled function, `START SIZE NAME` in hex, as
// perf reads it for the anonymous executable mappings of process PID. The file is untrusted
// input: only a regular file is read, at most kMaxBytes of it, and a line that does not parse
// is skipped.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_JIT_MAP_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_JIT_MAP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proftools {

class PerfJitMap {
 public:
  static constexpr uint64_t kMaxBytes = uint64_t{1} << 30;

  // Reads `path`; false when it is not a regular file that can be read.
  bool Load(const std::string& path);
  // The name of the function at `address`; "" when none holds it. When functions overlap (a
  // JIT reusing memory), the last one the file names holds the address, as perf's does.
  std::string_view Find(uint64_t address) const;

 private:
  struct Function {
    uint64_t start;
    uint64_t end;
    size_t order;  // its line: later lines win
    std::string name;
  };
  std::vector<Function> functions_;  // by start
  uint64_t longest_ = 0;
};

// Whether `file` names a JIT's perf map (`/tmp/perf-PID.map`), as perf names the anonymous
// executable mappings of process PID.
bool IsPerfJitMap(std::string_view file);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_JIT_MAP_H_
