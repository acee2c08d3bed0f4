// The V8 CPU profiles of a trace, as Chrome writes them in JSON and in Perfetto's protobuf alike:
// a Profile event (from the profiled thread: its startTime) and ProfileChunk events (nodes,
// samples and timeDeltas, from the sampler thread), tied together by their process and id; or one
// older CpuProfile event, a profile of its own. Chunks are taken in the order of their events'
// times (a trace buffer may flush them out of order).
#ifndef PROFTOOLS_COMMON_CHROME_V8_TRACE_PROFILES_H_
#define PROFTOOLS_COMMON_CHROME_V8_TRACE_PROFILES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/model/interner.h"
#include "common/model/model.h"

namespace proftools {

class V8TraceProfiles {
 public:
  // `name` names the input in messages.
  explicit V8TraceProfiles(std::string name) : name_(std::move(name)) {}

  // One event: `event` is "Profile", "ProfileChunk" or "CpuProfile"; `nodes` and `data` what
  // its args.data held (ReadV8EventData); `id` the event's id (none for CpuProfile); `ts_ns` its
  // time; `byte` where it is, for messages.
  void Add(const std::string& event, int64_t pid, std::optional<int64_t> tid, const std::string& id,
           int64_t ts_ns, V8Profile* nodes, V8ProfileFields* data, uint64_t byte);
  // Hands every profile its chunks' samples; the number of samples of all.
  uint64_t Finish();
  bool empty() const { return profiles_.empty(); }
  // Each profile's samples into `sink` (after Finish), labelled by `labels_of(pid, tid)`;
  // refuses the input when none resolves, warns of those that do not (V8Profile::Report).
  void Convert(Interner* interner, uint64_t source_id,
               const std::function<std::vector<Label>(int64_t, std::optional<int64_t>)>& labels_of,
               ProfileSink* sink, const ReadContext& context);

 private:
  struct Chunk {
    int64_t ts = 0;
    std::vector<uint64_t> samples;
    std::vector<int64_t> deltas_ns;
    uint64_t byte = 0;
  };
  struct Profile {
    explicit Profile(const std::string& name) : profile(name) {}
    int64_t pid = 0;
    std::optional<int64_t> tid;  // of the Profile event: the profiled thread
    V8Profile profile;
    std::vector<Chunk> chunks;
    std::optional<int64_t> start_ns, end_ns;
  };
  std::string name_;
  std::map<std::pair<int64_t, std::string>, size_t> index_;
  std::vector<std::unique_ptr<Profile>> profiles_;  // in order of first appearance
  int cpu_profile_events_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8_TRACE_PROFILES_H_
