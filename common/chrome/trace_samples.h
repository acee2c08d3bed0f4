// The Trace Event Format's sampled form: a top-level `stackFrames` object (id -> {name,
// category, parent}) and a top-level `samples` array ({cpu, tid, ts, name, sf, weight}, pid where
// the producer adds one), as Catapult's importers and perf's chrome-trace exports write them.
// Each sample is one sample of the profile with its TIME (`ts`, no duration: the format gives
// none), its stack the frames from `sf` up through the parents (leaf first), and the values
// `samples/count` (1) and `weight/count` (the sample's `weight`, 1 when absent); labels pid,
// tid (thread names as the trace's M events give them), cpu and event (the sample's `name`).
// A frame's category (its library, often) is not carried.
#ifndef PROFTOOLS_COMMON_CHROME_TRACE_SAMPLES_H_
#define PROFTOOLS_COMMON_CHROME_TRACE_SAMPLES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

std::vector<ValueType> StackSampleValueTypes();
inline constexpr const char* kStackSampleDefaultType = "samples";

class StackFrameSamples {
 public:
  // Reads the top-level `stackFrames` object and `samples` array. Throws ProfError.
  void ReadStackFrames(JsonDocument& json, JsonValue value);
  void ReadSamples(JsonDocument& json, JsonValue value);
  bool empty() const { return samples_.empty(); }

  // The labels of a sample of thread `tid` in process `pid` (absent: the sample names none).
  using ThreadLabels =
      std::function<std::vector<Label>(std::optional<int64_t> pid, std::optional<int64_t> tid)>;
  // Interns the stacks and sends one sample per entry of `samples`, in the order of the input.
  // Throws ProfError for a sample or a frame naming a missing frame, or frames in a cycle.
  void Convert(JsonDocument& json, Interner* interner, uint64_t source_id,
               const ThreadLabels& labels, ProfileSink* sink);

 private:
  struct Frame {
    std::string name;
    std::optional<std::string> parent;
    uint64_t byte;
  };
  struct StackSample {
    std::optional<int64_t> pid, tid, cpu;
    int64_t ts;
    std::string frame;  // its sf; "" for none
    std::string event;
    int64_t weight;
    uint64_t byte;
  };
  std::vector<Frame> frames_;
  std::unordered_map<std::string, size_t> frame_index_;
  std::vector<StackSample> samples_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_TRACE_SAMPLES_H_
