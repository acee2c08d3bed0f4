#include "common/stackprof/stackprof_codec.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/io/whole_input.h"
#include "common/json/json_document.h"
#include "common/model/call_graph.h"
#include "common/model/interner.h"
#include "common/stackprof/stackprof_results.h"

namespace proftools {
namespace {

std::string Milliseconds(long double micros) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3Lg ms", micros / 1000);
  return text;
}

class StackprofConverter {
 public:
  StackprofConverter(const StackprofResults& results, const std::string& name,
                     const ReadContext& context)
      : r_(results), name_(name), context_(context) {}

  void Emit(ProfileSink* sink) {
    const bool timed_mode = r_.mode == "cpu" || r_.mode == "wall";
    const bool object_mode = r_.mode == "object";
    if (!timed_mode && !object_mode && r_.mode != "custom") {
      context_.Warn(name_, "mode " + Printable(r_.mode) +
                               " is not one stackprof has (cpu, wall, object, custom): its "
                               "samples are read as counts only");
    }
    weighted_ = timed_mode || object_mode;
    if (weighted_ && r_.interval <= 0) {
      throw ProfError(name_, "interval " + std::to_string(r_.interval) + " in " + r_.mode +
                                 " mode: not a sampling interval");
    }
    // A sample's weight: the interval in nanoseconds (cpu, wall) or in allocations (object).
    weight_ = r_.interval;
    if (timed_mode) MultiplySaturating(&weight_, 1000);

    if (!r_.has_raw && r_.frames.empty() && !context_.allow_empty) {
      throw ProfError(name_, "stackprof results without samples or frames");
    }

    ProfileHeader header;
    header.sources.push_back(Source{1, "stackprof", context_.uri, std::nullopt});
    const auto meta = [&](const std::string& key, const std::string& value) {
      header.meta.push_back({"stackprof." + key, value});
    };
    meta("version", r_.version);
    meta("mode", r_.mode);
    meta("interval", std::to_string(r_.interval));
    meta("samples", std::to_string(r_.samples));
    meta("gc_samples", std::to_string(r_.gc_samples));
    meta("missed_samples", std::to_string(r_.missed_samples));
    for (const MetaEntry& entry : r_.metadata) meta("metadata." + entry.key, entry.value);
    header.types.push_back({"samples", "count"});
    if (weighted_) {
      const ValueType weight =
          timed_mode ? ValueType{r_.mode, "nanoseconds"} : ValueType{"objects", "count"};
      header.types.push_back(weight);
      header.default_type = weight.type;
      header.period = Period{weight, weight_};
    }
    sink->OnHeader(header);

    if (r_.missed_samples != 0) {
      context_.Warn(name_, "stackprof missed " + std::to_string(r_.missed_samples) +
                               (r_.missed_samples == 1 ? " sample" : " samples") +
                               " (missed_samples: the timer fired while a sample was being "
                               "taken): not in the profile");
    }
    Interner interner(sink);
    if (r_.has_raw) {
      EmitRaw(&interner, sink);
    } else {
      EmitGraph(&interner, sink);
    }
    sink->OnEnd();
  }

 private:
  [[noreturn]] void FailRaw(size_t index, const std::string& what) const {
    throw ProfError(name_, "byte " + std::to_string(r_.raw_byte) + ": raw[" +
                               std::to_string(index) + "]: " + what);
  }

  uint32_t FrameIndex(uint64_t id, size_t raw_index) const {
    const auto it = r_.frame_of.find(id);
    if (it == r_.frame_of.end()) {
      FailRaw(raw_index, "frame " + std::to_string(id) + " is not in frames");
    }
    return it->second;
  }

  const std::string& FileOf(const StackprofFrame& frame) const {
    static const std::string kNone;
    return frame.file == "<cfunc>" ? kNone : frame.file;
  }
  std::string NameOf(const StackprofFrame& frame) const {
    return frame.name.empty() ? "(unknown)" : frame.name;
  }

  uint64_t LocationOf(Interner* interner, uint32_t index, int64_t line) {
    const uint64_t key = (static_cast<uint64_t>(index) << 32) ^ static_cast<uint32_t>(line);
    const auto it = locations_.find(key);
    if (it != locations_.end()) return it->second;
    const StackprofFrame& frame = r_.frames[index];
    Function function;
    function.name = NameOf(frame);
    function.file = FileOf(frame);
    function.start_line = frame.line;
    Location location;
    location.lines.push_back(Line{interner->Function(function), line, 0});
    const uint64_t id = interner->Location(location);
    locations_.emplace(key, id);
    return id;
  }

  void EmitRaw(Interner* interner, ProfileSink* sink) {
    const std::vector<uint64_t>& raw = r_.raw;
    const bool with_lines = !r_.raw_lines.empty();
    if (with_lines && r_.raw_lines.size() != raw.size()) {
      context_.Warn(name_, "raw_lines has " + std::to_string(r_.raw_lines.size()) +
                               " elements where raw has " + std::to_string(raw.size()) +
                               ": frames are placed at their methods' first lines");
    }
    const bool lines = with_lines && r_.raw_lines.size() == raw.size();
    if (lines) {
      for (size_t i = 0; i < raw.size(); ++i) {
        if (r_.raw_lines[i] > INT32_MAX) {
          throw ProfError(name_, "raw_lines[" + std::to_string(i) + "]: line " +
                                     std::to_string(r_.raw_lines[i]) + " is past 2^31 - 1");
        }
      }
    }
    // The samples raw holds, to know whether the timestamps are theirs; each frame's index in
    // frames, looked up once (at raw's places of frames).
    uint64_t total = 0;
    std::vector<uint32_t> frame_index(raw.size(), 0);
    for (size_t i = 0; i < raw.size();) {
      const uint64_t depth = raw[i];
      if (depth > raw.size() - i - 1 || raw.size() - i - 1 - depth < 1) {
        FailRaw(i, "a stack of " + std::to_string(depth) + " frames runs past the end of raw");
      }
      for (size_t j = i + 1; j <= i + depth; ++j) frame_index[j] = FrameIndex(raw[j], j);
      i += depth + 1;
      total = total + raw[i] < total ? UINT64_MAX : total + raw[i];
      ++i;
    }
    const bool stamped = !r_.timestamps.empty() && r_.timestamps.size() == total;
    const bool delta_timed = !stamped && !r_.deltas.empty() && r_.deltas.size() == total;
    const bool wall_deltas = r_.mode == "wall" && r_.deltas.size() == total && total != 0;
    if ((!r_.timestamps.empty() && !stamped) ||
        (r_.timestamps.empty() && !r_.deltas.empty() && !delta_timed)) {
      context_.Warn(name_,
                    "the raw samples' times (raw_sample_timestamps, raw_timestamp_deltas)"
                    " are not one per sample (" +
                        std::to_string(total) + " samples): the samples are read without times");
    }
    if (r_.mode == "cpu") WarnOfCoarseTimer(total);

    std::vector<uint64_t> stack;
    Sample sample;
    sample.source_id = 1;
    size_t sample_index = 0;
    int64_t clock = 0;  // the running sum of the deltas, in nanoseconds
    for (size_t i = 0; i < raw.size();) {
      const size_t depth = static_cast<size_t>(raw[i]);
      const size_t frames = i + 1;
      stack.clear();
      for (size_t j = depth; j-- > 0;) {  // raw is outermost first; stacks are leaf first
        const uint32_t index = frame_index[frames + j];
        const int64_t line =
            lines ? static_cast<int64_t>(r_.raw_lines[frames + j]) : r_.frames[index].line;
        stack.push_back(LocationOf(interner, index, line));
      }
      sample.stack_id = interner->Stack(stack);
      i = frames + depth;
      const uint64_t count = raw[i++];
      if (!stamped && !delta_timed && !wall_deltas) {
        // Untimed: one sample for the run of identical stacks.
        sample.values.assign(1, static_cast<int64_t>(std::min<uint64_t>(count, INT64_MAX)));
        if (weighted_) {
          int64_t weight = weight_;
          MultiplySaturating(&weight, sample.values[0]);
          sample.values.push_back(weight);
        }
        if (count != 0) sink->OnSample(sample);
        continue;
      }
      for (uint64_t k = 0; k < count; ++k, ++sample_index) {
        int64_t delta = 0;
        if (sample_index < r_.deltas.size()) {
          delta = std::max<int64_t>(r_.deltas[sample_index], 0);
          MultiplySaturating(&delta, 1000);
        }
        if (stamped) {
          int64_t time =
              static_cast<int64_t>(std::min<uint64_t>(r_.timestamps[sample_index], INT64_MAX));
          MultiplySaturating(&time, 1000);
          sample.time_nanos = time;
        } else if (delta_timed) {
          AddSaturating(&clock, delta);
          sample.time_nanos = clock;
        }
        sample.values.assign(1, 1);
        if (weighted_) sample.values.push_back(wall_deltas ? delta : weight_);
        sink->OnSample(sample);
      }
    }
  }

  // In cpu mode the deltas are wall time between samples: off-CPU gaps make some long, but if
  // even the shortest tenth are well past the interval, the timer fires less often than asked
  // (ITIMER_PROF at the kernel's tick) and each sample stands for more CPU than it is counted.
  void WarnOfCoarseTimer(uint64_t total) const {
    if (r_.deltas.size() != total || total < 20) return;
    std::vector<int64_t> deltas(r_.deltas.begin() + 1, r_.deltas.end());
    const size_t tenth = deltas.size() / 10;
    std::nth_element(deltas.begin(), deltas.begin() + static_cast<ptrdiff_t>(tenth), deltas.end());
    const int64_t low = deltas[tenth];
    if (static_cast<long double>(low) <= 1.5L * static_cast<long double>(r_.interval)) return;
    context_.Warn(name_, "nine samples in ten came " + Milliseconds(low) +
                             " or more apart (raw_timestamp_deltas), where the interval is " +
                             Milliseconds(r_.interval) +
                             ": the timer fired less often than asked, and each sample counts "
                             "as one interval of cpu (as in stackprof's and speedscope's "
                             "reports), so the cpu totals understate the CPU time");
  }

  void EmitGraph(Interner* interner, ProfileSink* sink) {
    CallGraph graph(weighted_ ? 2 : 1);
    std::vector<uint32_t> function_of(r_.frames.size());
    for (size_t i = 0; i < r_.frames.size(); ++i) {
      const StackprofFrame& frame = r_.frames[i];
      function_of[i] = graph.FunctionAt(NameOf(frame), FileOf(frame), frame.line);
    }
    const auto costs = [&](uint64_t samples) {
      std::vector<int64_t> values{static_cast<int64_t>(std::min<uint64_t>(samples, INT64_MAX))};
      if (weighted_) {
        int64_t weight = weight_;
        MultiplySaturating(&weight, values[0]);
        values.push_back(weight);
      }
      return values;
    };
    for (size_t i = 0; i < r_.frames.size(); ++i) {
      const StackprofFrame& frame = r_.frames[i];
      if (frame.samples != 0) graph.AddSelf(function_of[i], costs(frame.samples));
      for (const auto& [callee, samples] : frame.edges) {
        const auto it = r_.frame_of.find(callee);
        if (it == r_.frame_of.end()) {
          throw ProfError(name_, "frame " + std::to_string(frame.id) + "'s edges name frame " +
                                     std::to_string(callee) + ", which is not in frames");
        }
        graph.AddCall(function_of[i], function_of[it->second], 0, costs(samples));
      }
    }
    interner->LimitFrames(context_.max_implied_frames(), name_);
    if (graph.Emit(interner, sink, 1, false, {})) {
      context_.Warn(name_, CallGraph::CutWarning("frames' edges", "samples"));
    }
    context_.Warn(name_,
                  "no raw samples (StackProf.run without raw: true): the stacks are built from "
                  "the frames' edges, exact for each function's own samples but not for the "
                  "stacks (docs/stackprof.md)");
  }

  const StackprofResults& r_;
  const std::string& name_;
  const ReadContext& context_;
  bool weighted_ = false;
  int64_t weight_ = 0;
  std::unordered_map<uint64_t, uint64_t> locations_;  // (frame index, line) -> location
};

constexpr std::string_view kMarshalStart("\x04\x08{", 3);

void ReadStackprofInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  if (StartsWith(input.head, kMarshalStart)) {
    WholeInput data;
    ReadWholeInput(input, context.max_input_size, "stackprof data", &data);
    const StackprofResults results = ReadStackprofMarshal(data.view(), input.name);
    StackprofConverter(results, input.name, context).Emit(sink);
    return;
  }
  JsonDocument json(input, context.max_input_size, "JSON");
  const StackprofResults results = ReadStackprofJson(json);
  StackprofConverter(results, input.name, context).Emit(sink);
}

int SniffStackprof(std::string_view head, bool text) {
  if (!text) {
    // Marshal: a hash whose keys include the symbols :mode and :interval.
    return StartsWith(head, kMarshalStart) && Contains(head, std::string_view(":\x09mode", 6)) &&
                   Contains(head, std::string_view(":\x0dinterval", 10))
               ? kCertain
               : kNotMine;
  }
  const size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || head[start] != '{') return kNotMine;
  const std::string_view top = head.substr(0, 400);
  return Contains(top, "\"mode\"") && Contains(top, "\"gc_samples\"") ? kCertain : kNotMine;
}

}  // namespace

const ReaderSpec kStackprofReader = {
    "stackprof",
    "Ruby stackprof results (.dump or --json)",
    ReaderShape::kWholeInput,
    nullptr,
    SniffStackprof,
    ReadStackprofInput,
};

}  // namespace proftools
