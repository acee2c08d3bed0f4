// Converting `perf script` text into a profile (the mapping is documented in man/man1/perf2prof.1):
//
// - one source per input (type `perf`, the input's name as URI, the capture time from a
//   `# captured on:` header comment); what the other header comments say of the recording
//   (host, perf version, command line, ...) as meta `perf.KEY.SOURCE`;
// - two value types per event, in order of first appearance: `EVENT_samples count` (1 per
//   sample of that event) and `EVENT UNIT` (the sample's period; UNIT is `nanoseconds` for
//   cpu-clock and task-clock, else `count`), EVENT named without
//   perf's modifiers (perf_events.h; meta `perf.event.EVENT` keeps the name as printed). A
//   sample carries 0 in the other events' types. The default type is the period type of the
//   event recorded first (`# event :` lines), else of the event with the most samples. When
//   perf printed no period for an event, a sample is worth the period --period gives, else the
//   one its `# event :` line gives (a fixed period, or 10^9/frequency nanoseconds for a time
//   event sampled by frequency), else 1 in unit `count`: a count of samples must not pass for
//   nanoseconds. A warning says which;
// - one sample per perf sample, leaf first, with its timestamp and the labels comm, pid (when
//   printed), tid and cpu (when printed), and a tracepoint's arguments (perf_tracepoint.h);
// - a frame is a location at its address in a mapping named after the DSO (or, with mmap
//   records, the real mapping and the runtime address: perf_mappings.h); its function is the
//   symbol without offset (demangled, with the raw name as system name, when it was mangled),
//   with the file and line of a `-F +srcline` line; an `[unknown]` symbol gives a location
//   without function, which reports name after the DSO. Frames perf tags `(inlined)` are
//   inlined lines of the location at their address, as is a perf-map-agent inline chain
//   `A->B->C` in a JIT DSO;
// - with --off-cpu, the intervals threads spend switched out (perf_offcpu.h) as samples of
//   the type `off-cpu nanoseconds`.
//
// The first pass (ScanPerfScript) learns the events, so that the types are declared before the
// first sample; memory grows with distinct frames and stacks, not with samples.
#ifndef PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_
#define PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_

#include <cstdint>
#include <deque>
#include <memory>
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
#include "common/perf/perf_events.h"
#include "common/perf/perf_mappings.h"
#include "common/perf/perf_script.h"

namespace proftools {

struct PerfPlan {
  std::vector<std::string> events;           // in order of first appearance
  std::vector<uint64_t> event_samples;       // the samples of each of events
  std::vector<uint64_t> event_periods;       // those of them with a period printed
  std::vector<std::string> recorded_events;  // `# event : name = ...` lines, in order
  // How each of recorded_events was sampled, when its line says.
  std::vector<std::optional<PerfEventSampling>> recorded_sampling;
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
  uint64_t mmaps = 0;          // PERF_RECORD_MMAP and MMAP2 lines
};

// The first pass over input `name`. When `spool_fd` is not -1, every byte read is also
// written to it. Throws ProfError for lines longer than 64 MiB.
PerfPlan ScanPerfScript(ByteStream* stream, const std::string& name, int spool_fd = -1);

struct PerfInput {
  std::string name;  // for messages ("<stdin>" for standard input)
  std::string uri;   // for its source
  PerfPlan plan;
};

struct PerfOptions {
  bool strict = false;   // a line that is not perf script is an error, not a warning
  bool off_cpu = false;  // off-CPU time from sched_switch samples (perf_offcpu.h)
  // --period: what one sample of an event perf printed no period for is worth, in the event's
  // unit (nanoseconds for cpu-clock and task-clock); period_is_time: it was given as a
  // duration (`250us`), which only a time event can take.
  std::optional<int64_t> period;
  bool period_is_time = false;
  // Inputs of at least this many bytes are read and classified on a thread of their own
  // (perf_pipeline.h), in blocks of pipeline_block_bytes; smaller ones on the converter's.
  // The output is the same either way (tests set these to force either path).
  uint64_t pipeline_min_bytes = uint64_t{4} << 20;
  size_t pipeline_block_bytes = size_t{1} << 20;
};

// The preamble for converting `inputs`: a source per input, the value types of every event.
ProfileHeader MakePerfHeader(const std::vector<PerfInput>& inputs, const PerfOptions& options);

// Two value types per event, in order of first appearance: `EVENT_samples` and `EVENT`, EVENT
// without its modifiers unless another event of the profile has the same name without them,
// except that a name an earlier type already has gets the first free suffix `.2`, `.3`, ... (so
// names never collide); the index of each event's first type (keyed by its name as printed, an
// unnamed event being `event`); with --off-cpu and a sched_switch or offcpu-time event, the
// type `off-cpu nanoseconds` last.
struct PerfValueTypes {
  std::vector<ValueType> types;
  std::unordered_map<std::string, size_t> first_type;
  std::vector<MetaEntry> event_names;  // `perf.event.TYPE` -> the event as printed
  size_t default_type = 0;             // index in types
  std::optional<size_t> off_cpu;       // index of the off-cpu type
  // What a sample without a printed period is worth, per event (keyed as first_type): the
  // period from --period or the `# event :` header, else 1 (the type's unit is then `count`).
  std::unordered_map<std::string, int64_t> fixed_period;
  // What was done for events without periods, one sentence each, for warnings.
  std::vector<std::string> notes;
};
PerfValueTypes NamePerfValueTypes(const std::vector<PerfInput>& inputs, const PerfOptions& options);

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
  // A frame line with what follows it: its srcline and whether perf tagged it `(inlined)`.
  struct FrameView {
    std::string_view text;
    std::string_view src_file;
    int64_t src_line = 0;
    bool has_src = false;
    bool inlined = false;
  };
  // The location of frames at one address (inlined ones first, then the one they are inlined
  // into), from the cache or built. `absolute`: the frame was on the header line, where perf
  // prints the runtime address, not one relative to the object.
  uint64_t FrameLocation(const FrameView* frames, size_t count, bool absolute);
  // The mapping of a frame, from mmap records when there are some (the address becomes the
  // runtime one), else the DSO's name alone; 0 for none.
  uint64_t FrameMapping(const PerfFrame& frame, bool absolute, uint64_t* address);
  // The frames of the sample being read: a frame line starts or continues a group of frames
  // at one address (perf_script.h), its srcline completes it; FlushFrames ends the group,
  // pushing its location on stack_.
  void AddFrame(std::string_view text, bool absolute);
  void AddSrcline(std::string_view file, int64_t line, bool inlined);
  void FlushFrames();
  static bool EndsWithInlined(std::string_view frame_text);
  static bool SameAddress(std::string_view frame_a, std::string_view frame_b);
  // A line that is not perf script: an error with --strict, else counted for one warning.
  void Problem(const PerfInput& input, uint64_t line_number, std::string_view line);

  ProfileSink* sink_;
  const std::vector<PerfInput>& inputs_;
  DiagnosticHandler* warnings_;
  PerfOptions options_;
  ProfileHeader header_;
  Interner interner_;
  std::unordered_map<std::string, size_t> event_index_;    // event -> index of its first type
  std::unordered_map<std::string, int64_t> fixed_period_;  // event -> a sample's worth
  std::optional<size_t> off_cpu_type_;                     // with --off-cpu
  std::vector<uint64_t> stack_;  // locations of the open sample, leaf first
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
  std::vector<MemoSlot> memo_;  // sized at the first frame after input_bytes_
  uint64_t input_bytes_ = 0;    // of the largest input
  // The location of a frame line without srcline, through the memo.
  uint64_t MemoizedFrameLocation(std::string_view frame_text);
  size_t location_key_bytes_ = 0;
  std::string key_;  // reused: no allocation per frame
  // The frames of one location being gathered (inlined frames share their caller's address),
  // the last one maybe waiting for its srcline.
  struct PendingFrame {
    std::string text;
    std::string src_file;
    int64_t src_line = 0;
    bool has_src = false;
    bool inlined = false;
  };
  std::vector<PendingFrame> group_;
  size_t group_size_ = 0;  // group_'s first entries in use (the others keep their buffers)
  bool group_absolute_ = false;
  // The thread of the sample being read, for its mappings.
  int64_t pid_ = -1;
  int64_t tid_ = 0;
  std::unique_ptr<PerfMappings> mappings_;  // this input's, when it has mmap records
  std::vector<FrameView> views_;
  uint64_t unknown_lines_ = 0;
  uint64_t first_unknown_line_ = 0;
  std::string first_unknown_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PERF_PERF_CONVERTER_H_
