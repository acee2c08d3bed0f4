// The layout of a perf.data file, both as `perf record` writes a file (a header pointing at the
// attribute, data and feature sections) and in pipe mode (`perf record -o -`: a 16-byte header,
// then records only, the attributes and features among them). Every field is read through
// PerfBytes, which checks it lies inside the input: a recording is untrusted input.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FILE_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FILE_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// Little-endian fields at offsets of the whole input. Each accessor throws ProfError
// "NAME: byte AT: ..." when the field is not inside the input.
class PerfBytes {
 public:
  PerfBytes(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}
  uint64_t size() const { return bytes_.size(); }
  const std::string& name() const { return name_; }
  // Inline: the record walk reads millions of fields. Out of range, SlowField throws.
  uint16_t U16(uint64_t at) const { return Field<uint16_t>(at); }
  uint32_t U32(uint64_t at) const { return Field<uint32_t>(at); }
  uint64_t U64(uint64_t at) const { return Field<uint64_t>(at); }
  // `size` bytes at `at`, which must be inside the input; `what` names them in the message.
  std::string_view Span(uint64_t at, uint64_t size, const char* what) const;
  // A NUL-terminated string in the `size` bytes at `at` (all of them when there is no NUL).
  std::string_view String(uint64_t at, uint64_t size) const;
  [[noreturn]] void Fail(uint64_t at, const std::string& message) const;

 private:
  template <typename T>
  T Field(uint64_t at) const {
    if (at > bytes_.size() || bytes_.size() - at < sizeof(T)) OutOfRange(at, sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at, sizeof(T));
    return value;
  }
  [[noreturn]] void OutOfRange(uint64_t at, uint64_t size) const;

  std::string_view bytes_;
  const std::string& name_;
};

// One event of the recording: its perf_event_attr (the fields the reader uses), its name and
// the sample ids the kernel gave it.
struct PerfEventAttr {
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t sample_period = 0;  // or sample_freq, when flags has kAttrFreq
  uint64_t sample_type = 0;
  uint64_t read_format = 0;
  uint64_t flags = 0;
  uint64_t branch_sample_type = 0;
  uint64_t sample_regs_user = 0;
  uint64_t sample_regs_intr = 0;
  std::string name;  // as perf prints it on samples: `cpu-clock`, `cycles:u`
  std::vector<uint64_t> ids;
};

// A file's build id as perf recorded it (the build-id feature, HEADER_BUILD_ID in a pipe).
struct PerfBuildId {
  int64_t pid = -1;
  bool kernel = false;   // the kernel or a kernel module
  std::string build_id;  // lower-case hex
  std::string file;
};

struct PerfDataLayout {
  bool pipe = false;
  std::vector<PerfEventAttr> attrs;
  std::vector<PerfBuildId> build_ids;
  // What the header features say of the recording, as `perf script --header` names them and
  // perf2prof keeps them from its comments: hostname, os_release, version, arch, cpu, cmdline,
  // total_memory; in that order.
  std::vector<MetaEntry> recording;
  std::optional<uint64_t> first_sample_time;  // the sample time feature
  std::optional<uint64_t> last_sample_time;
  // The tracing data (the formats of tracepoint events): the feature's section, or what
  // follows a pipe's HEADER_TRACING_DATA record; size 0 when there is none.
  uint64_t tracing_data_at = 0;
  uint64_t tracing_data_size = 0;
  uint64_t data_offset = 0;  // where the records start
  uint64_t data_end = 0;     // where they end
};

// Reads the header (and, for a file, the attribute and feature sections). Throws ProfError for
// what is not a perf.data file this reader knows.
PerfDataLayout ReadPerfDataLayout(const PerfBytes& bytes);

// Applies a pipe-mode header record (HEADER_ATTR, HEADER_FEATURE, HEADER_BUILD_ID,
// EVENT_UPDATE) at `at` of `size` bytes to `layout`; false for records of other types.
bool ApplyPerfHeaderRecord(const PerfBytes& bytes, uint64_t at, uint32_t type, uint64_t size,
                           PerfDataLayout* layout);

// The name perf gives an event it has no description of: `cycles`, `cpu-clock`, `raw 0x1a`.
std::string PerfEventFallbackName(const PerfEventAttr& attr);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_DATA_FILE_H_
