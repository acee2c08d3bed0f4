// What both of the Firefox Profiler's formats hold once read (gecko_json.cc and
// processed_json.cc fill it), and its conversion into a profile: one source; per thread its
// frames, its stack table (each stack a frame and a prefix stack before it) and its samples,
// which become samples labelled pid, tid, thread (and process, category); frames with an
// address in a library become locations in a mapping of it; JS frames keep file, line, column.
#ifndef PROFTOOLS_COMMON_FIREFOX_FX_PROFILE_H_
#define PROFTOOLS_COMMON_FIREFOX_FX_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json/json_document.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct FxLib {
  std::string path, build_id;
  uint64_t start = 0, end = 0, offset = 0;  // 0 in processed profiles: addresses are relative
};

struct FxFrame {
  std::string name;  // empty: a bare address (an unsymbolicated native frame)
  std::string file;
  int64_t function_line = 0;  // where the function starts (1-based; 0: unknown)
  int64_t line = 0, column = 0;
  std::optional<uint64_t> address;
  int64_t lib = -1;       // index into the thread's libs, -1: none
  int64_t category = -1;  // index into the profile's categories, -1: none (inherited)
};

// Who a thread is: its name, its process's name, its pid and tid (where they are numbers).
struct FxThreadNames {
  std::string name, process_name;
  std::optional<int64_t> pid, tid;
};

// Reads `key` of a thread object into `names` when it is one of name, processName, pid, tid
// (both formats spell them alike); false for another key, left unread.
bool ReadThreadNames(JsonDocument& json, std::string_view key, JsonValue& value,
                     const std::string& at, FxThreadNames* names);

// How a thread's `weight` column counts its samples.
enum class FxWeight { kSamples, kTracingMs, kBytes };

struct FxThread {
  std::string what;  // "threads[0]" or "processes[1].threads[0]", for messages
  uint64_t byte = 0;
  FxThreadNames names;
  size_t libs = 0;  // index into FxProfile::lib_sets
  std::vector<FxFrame> frames;
  std::vector<int64_t> stack_frame, stack_prefix;  // prefix -1: a root; always < its stack
  std::vector<int64_t> sample_stack;               // -1: no stack
  std::vector<int64_t> sample_time;                // nanoseconds since the Unix epoch
  std::vector<double> sample_weight;               // empty: 1 each
  std::vector<double> sample_cpu;                  // empty: none; else threadCPUDelta (0: null)
  FxWeight weight = FxWeight::kSamples;
};

struct FxProfile {
  const char* format = "";  // "Gecko profile" or "processed profile", in the source's meta
  int64_t version = 0;
  int64_t start_ns = 0;  // meta.startTime
  double interval_ms = 0;
  std::string product;
  std::string cpu_unit;  // meta.sampleUnits.threadCPUDelta: "µs", "ns", "variable CPU cycles"
  std::vector<std::string> categories;
  std::vector<std::vector<FxLib>> lib_sets;  // one per process (Gecko), or the profile's
  std::vector<FxThread> threads;
};

// Milliseconds since the Unix epoch (meta.startTime) in nanoseconds, to the nanosecond.
int64_t EpochMillisToNanos(JsonDocument& json, double ms, const std::string& what);
// `base` plus `ms` milliseconds in nanoseconds; out of 64 bits is an error naming the cell
// TABLE.COLUMN[ROW] (the name is built only then: this runs once per sample).
int64_t AddMillis(JsonDocument& json, int64_t base, double ms, const std::string& table,
                  const char* column, uint64_t row);

// Checks the stack table of every thread (frames in range, prefixes before their stack), then
// sends the profile to `sink` (OnHeader ... OnEnd).
void ConvertFxProfile(JsonDocument& json, FxProfile& profile, const ReadContext& context,
                      ProfileSink* sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_FX_PROFILE_H_
