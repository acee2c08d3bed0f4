#include "common/chrome/trace_samples.h"

#include <utility>

#include "common/chrome/v8_json.h"
#include "common/model/parent_stacks.h"

namespace proftools {

std::vector<ValueType> StackSampleValueTypes() {
  return {{"samples", "count"}, {"weight", "count"}};
}

void StackFrameSamples::ReadStackFrames(JsonDocument& json, JsonValue value) {
  ForEachField(json, json.Object(std::move(value), "stackFrames"), "stackFrames",
               [&](std::string_view id, JsonValue v) {
                 Frame frame;
                 frame.byte = json.Byte();
                 ForEachField(json, json.Object(std::move(v), "a stack frame"), "a stack frame",
                              [&](std::string_view key, JsonValue f) {
                                if (key == "name") {
                                  frame.name = std::string(
                                      json.String(std::move(f), "a stack frame's name"));
                                } else if (key == "parent") {
                                  frame.parent = json.Token(std::move(f), "a stack frame's parent");
                                }
                              });
                 if (!frame_index_.emplace(std::string(id), frames_.size()).second) {
                   json.Fail("stack frame " + std::string(id) + " is defined twice", frame.byte);
                 }
                 frames_.push_back(std::move(frame));
               });
}

void StackFrameSamples::ReadSamples(JsonDocument& json, JsonValue value) {
  for (JsonValue element : json.Array(std::move(value), "samples")) {
    StackSample sample;
    sample.byte = json.Byte();
    bool has_ts = false, has_frame = false;
    sample.weight = 1;
    ForEachField(json, json.Object(std::move(element), "samples[]"), "a sample",
                 [&](std::string_view key, JsonValue v) {
                   if (key == "ts") {
                     sample.ts = json.Microseconds(std::move(v), "a sample's ts");
                     has_ts = true;
                   } else if (key == "sf" || key == "stackFrame") {
                     sample.frame = json.Token(std::move(v), "a sample's sf");
                     has_frame = true;
                   } else if (key == "tid") {
                     sample.tid = json.Signed(std::move(v), "a sample's tid");
                   } else if (key == "pid") {
                     sample.pid = json.Signed(std::move(v), "a sample's pid");
                   } else if (key == "cpu") {
                     sample.cpu = json.Signed(std::move(v), "a sample's cpu");
                   } else if (key == "name") {
                     sample.event = std::string(json.String(std::move(v), "a sample's name"));
                   } else if (key == "weight") {
                     sample.weight = json.Signed(std::move(v), "a sample's weight");
                   }
                 });
    const std::string at = "samples[" + std::to_string(samples_.size()) + "]";
    if (!has_ts) json.Fail(at + ": no ts", sample.byte);
    if (sample.ts < 0) json.Fail(at + ": ts: a time before 0", sample.byte);
    // Without a stack frame and worth nothing: an end marker (prof2chrome ends each track with
    // one so that speedscope, which weighs a sample by the time to the next, counts the last).
    if (!has_frame && sample.weight == 0) continue;
    if (!has_frame) json.Fail(at + ": no sf (its stack frame)", sample.byte);
    if (sample.weight < 0) json.Fail(at + ": a negative weight", sample.byte);
    samples_.push_back(std::move(sample));
  }
}

void StackFrameSamples::Convert(JsonDocument& json, Interner* interner, uint64_t source_id,
                                const ThreadLabels& labels, ProfileSink* sink) {
  ParentLinkedStacks stacks(interner, json.name());
  for (size_t i = 0; i < frames_.size(); ++i) {
    const Frame& frame = frames_[i];
    uint64_t parent = ParentLinkedStacks::kNoParent;
    if (frame.parent) {
      const auto it = frame_index_.find(*frame.parent);
      if (it == frame_index_.end()) {
        json.Fail("a stack frame's parent " + *frame.parent + " is not among the stackFrames",
                  frame.byte);
      }
      parent = it->second;
    }
    Function function;
    function.name = frame.name.empty() ? "(no name)" : frame.name;  // names may not be empty
    Location location;
    location.lines.push_back(Line{interner->Function(function), 0, 0});
    stacks.Add(i, parent, interner->Location(location));
  }
  Sample sample;
  sample.source_id = source_id;
  for (const StackSample& s : samples_) {
    const auto it = frame_index_.find(s.frame);
    if (it == frame_index_.end()) {
      json.Fail("a sample's sf " + s.frame + " is not among the stackFrames", s.byte);
    }
    try {
      sample.stack_id = stacks.StackOf(it->second);
    } catch (const ProfError&) {  // parents are all there: a cycle
      json.Fail(
          "the parents of stack frame " + s.frame + " form a cycle (a frame is its own ancestor)",
          frames_[it->second].byte);
    }
    sample.time_nanos = s.ts;
    sample.values = {1, s.weight};
    sample.labels = labels(s.pid, s.tid);
    if (s.cpu) sample.labels.push_back(Label::Number("cpu", *s.cpu));
    if (!s.event.empty()) sample.labels.push_back(Label::String("event", s.event));
    sink->OnSample(sample);
  }
}

}  // namespace proftools
