// What StackProf.results holds (stackprof's ext/stackprof/stackprof.c, versions 0.2 on), read
// from either of the files users have: the Marshal dump that `StackProf.run(out: FILE)` and the
// middleware write (`.dump`), or its JSON (`stackprof --json FILE`, what speedscope reads).
// Both give the same results; the converter (stackprof_codec.cc) makes the profile.
#ifndef PROFTOOLS_COMMON_STACKPROF_STACKPROF_RESULTS_H_
#define PROFTOOLS_COMMON_STACKPROF_STACKPROF_RESULTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/model/model.h"

namespace proftools {

struct StackprofFrame {
  uint64_t id = 0;       // the frame's key: an address, or 0 to 2 for the GC's pseudo-frames
  std::string name;      // rb_profile_frame_full_label: "Object#fib", "block in Foo#bar"
  std::string file;      // "" when nil; C functions' is "<cfunc>" (Ruby 3) or their caller's
  int64_t line = 0;      // the method's first line; 0 when absent (C functions)
  uint64_t samples = 0;  // samples with the frame on top
  std::vector<std::pair<uint64_t, uint64_t>> edges;  // callee id -> samples (`edges`)
};

struct StackprofResults {
  std::string version;   // "1.2", as written
  std::string mode;      // cpu, wall, object, custom
  int64_t interval = 0;  // microseconds (cpu, wall), allocations (object)
  uint64_t samples = 0, gc_samples = 0, missed_samples = 0;
  std::vector<MetaEntry> metadata;  // StackProf.run(metadata:) entries with a scalar value
  std::vector<StackprofFrame> frames;
  std::unordered_map<uint64_t, uint32_t> frame_of;  // id -> index in frames
  // raw: true recordings: stacks as stackprof keeps them, each "depth, frame ids (outermost
  // first), how many samples in a row had it"; raw_lines (0.2.25 on) is the same with each
  // frame's line in place of its id; one timestamp and delta (microseconds) per sample.
  bool has_raw = false;
  std::vector<uint64_t> raw;
  std::vector<uint64_t> raw_lines;
  std::vector<uint64_t> timestamps;
  std::vector<int64_t> deltas;
  uint64_t raw_byte = 0;  // where raw starts in the file, for messages
};

// Reads Marshal data (the first two bytes 04 08). Throws ProfError "NAME: byte N: what".
StackprofResults ReadStackprofMarshal(std::string_view bytes, const std::string& name);

class JsonDocument;
// Reads the JSON `stackprof --json` writes.
StackprofResults ReadStackprofJson(JsonDocument& json);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_STACKPROF_STACKPROF_RESULTS_H_
