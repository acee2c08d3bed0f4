// The formats of tracepoint events, from the tracing data perf stores in a recording (the
// feature TRACING_DATA, or a pipe's HEADER_TRACING_DATA record): for each event its id and the
// layout of its raw data (`field:pid_t prev_pid; offset:24; size:4; signed:1;`), so that a
// sample's raw bytes become the `KEY=VALUE` arguments perf script prints. sched_switch's
// prev_state is printed as perf prints it, in letters (`S`, `D`, `R+`), from the flags its
// `print fmt` lists.
#ifndef PROFTOOLS_COMMON_PERF_DATA_PERF_TRACEPOINT_FORMAT_H_
#define PROFTOOLS_COMMON_PERF_DATA_PERF_TRACEPOINT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proftools {

struct TracepointField {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  bool is_signed = false;
  bool is_string = false;    // char name[N]
  bool is_data_loc = false;  // __data_loc char[] name: a u32 of offset and length
};

struct TracepointFormat {
  std::string name;  // `sched_switch`
  uint64_t id = 0;
  std::vector<TracepointField> fields;  // without the common_ ones
  // The letters of a task state's bits, from the print fmt's __print_flags, and the bit that
  // adds `+` (preempted): sched_switch's prev_state.
  std::vector<std::pair<uint64_t, std::string>> state_flags;
  uint64_t preempted = 0;
};

// Every event format in `tracing_data`. Text that does not parse is skipped.
std::vector<TracepointFormat> ParseTracepointFormats(std::string_view tracing_data);

// The arguments of a sample's raw data as perf script prints them: `name=value` separated by
// blanks (sched_switch's with its ` ==> ` before next_comm). Fields outside `raw` are left out.
std::string TracepointArguments(const TracepointFormat& format, std::string_view raw);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_DATA_PERF_TRACEPOINT_FORMAT_H_
