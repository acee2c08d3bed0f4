// Converting `perf script` text into a profile (the mapping is documented in man/perf2prof.1):
//
// - one source per input (type `perf`, the input's name as URI, the capture time from a
//   `# captured on:` header comment); what the other header comments say of the recording
//   (host, perf version, command line, ...) as meta `perf.KEY.SOURCE`;
// - two value types per event, in order of first appearance: `EVENT_samples count` (1 per
//   sample of that event) and `EVENT UNIT` (the sample's period, or 1 when perf printed none;
//   UNIT is `nanoseconds` for cpu-clock and task-clock, else `count`). A sample carries 0 in
//   the other events' types. The default type is the first event's period type;
// - one sample per perf sample, leaf first, with its timestamp and the labels comm, pid (when
//   printed), tid and cpu (when printed);
// - a frame is a location at its address in a mapping named after the DSO; its function is the
//   symbol without offset (demangled, with the raw name as system name, when it was mangled),
//   with the file and line of a `-F +srcline` line; an `[unknown]` symbol gives a location
//   without function, which reports name after the DSO. A perf-map-agent inline chain
//   `A->B->C` in a JIT DSO becomes one location with inlined lines.
//
// The first pass (ScanPerfScript) learns the events, so that the types are declared before the
// first sample; memory grows with distinct frames and stacks, not with samples.
#ifndef PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_
#define PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/model/interner.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

struct PerfPlan {
  std::vector<std::string> events;  // in order of first appearance
  std::optional<int64_t> capture_time_nanos;
  // The line of a `# captured on:` past 2262, which 64-bit nanoseconds cannot hold: the source
  // gets no time and the converter warns (0: none).
  uint64_t late_capture_line = 0;
  // What perf's header comments (`perf script --header`) say of the recording, e.g.
  // {"hostname", "bgregg-lgud2"}, {"cmdline", "/usr/bin/perf record ..."}; in order.
  std::vector<MetaEntry> recording;
  uint64_t bytes = 0;          // bytes scanned: the second pass reads no further
  uint64_t samples = 0;        // header lines
  uint64_t unknown_lines = 0;  // lines that are not perf script
  uint64_t srclines = 0;       // -F +srcline lines
};

// The first pass over input `name`. When `spool_fd` is not -1, every byte read is also
// written to it. Throws ProfError for lines longer than 64 MiB.
PerfPlan ScanPerfScript(ByteStream* stream, const std::string& name, int spool_fd = -1);

struct PerfInput {
  std::string name;  // for messages ("<stdin>" for standard input)
  std::string uri;   // for its source
  PerfPlan plan;
};

// The preamble for converting `inputs`: a source per input, the value types of every event.
ProfileHeader MakePerfHeader(const std::vector<PerfInput>& inputs);

// Two value types per event, in order of first appearance: `EVENT_samples` and `EVENT`, except
// that a name an earlier type already has gets the first free suffix `.2`, `.3`, ... (so
// names never collide), and the index of each event's first type (keyed by its name, an
// unnamed event being `event`).
struct PerfValueTypes {
  std::vector<ValueType> types;
  std::unordered_map<std::string, size_t> first_type;
};
PerfValueTypes NamePerfValueTypes(const std::vector<PerfInput>& inputs);

struct PerfOptions {
  bool strict = false;  // a line that is not perf script is an error, not a warning
};

class PerfConverter {
 public:
  // Sends MakePerfHeader(inputs) to `sink`. Warnings go to `warnings` (which may throw).
  PerfConverter(ProfileSink* sink, const std::vector<PerfInput>& inputs,
                DiagnosticHandler* warnings, PerfOptions options);

  // Converts input `index` (in order), whose content `stream` yields from its first byte.
  void Convert(size_t index, ByteStream* stream);
  // Ends the profile.
  void Finish();

 private:
  // The location of a frame line (with its srcline, when has_src), from the cache or built.
  uint64_t FrameLocation(std::string_view frame_text, std::string_view src_file, int64_t src_line,
                         bool has_src);
  // A line that is not perf script: an error with --strict, else counted for one warning.
  void Problem(const PerfInput& input, uint64_t line_number, std::string_view line);

  ProfileSink* sink_;
  const std::vector<PerfInput>& inputs_;
  DiagnosticHandler* warnings_;
  PerfOptions options_;
  ProfileHeader header_;
  Interner interner_;
  std::unordered_map<std::string, size_t> event_index_;  // event -> index of its first type
  // A hash of frame lines that reads 8 bytes at a time (this lookup is the hot loop).
  struct FrameHash {
    size_t operator()(std::string_view text) const;
  };
  // Frame text (+ srcline) -> location; the keys live in location_keys_.
  std::unordered_map<std::string_view, uint64_t, FrameHash> locations_;
  std::deque<std::string> location_keys_;
  // In front of locations_: a direct-mapped memo indexed by the frame's first bytes (its
  // address), checked by comparing the whole text. A frame line at an address almost always
  // reads the same, so most frames cost one comparison instead of a hash of the whole line.
  struct MemoSlot {
    std::string text;
    uint64_t location = 0;
  };
  std::vector<MemoSlot> memo_;
  // The location of a frame line without srcline, through the memo.
  uint64_t MemoizedFrameLocation(std::string_view frame_text);
  size_t location_key_bytes_ = 0;
  std::string key_;         // reused: no allocation per frame
  std::string frame_text_;  // the last frame line, kept until we know if a srcline follows
  uint64_t unknown_lines_ = 0;
  uint64_t first_unknown_line_ = 0;
  std::string first_unknown_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_
