#include "common/chrome/v8_profile.h"

#include <algorithm>
#include <unordered_map>

#include "common/base/diagnostics.h"
#include "common/model/parent_stacks.h"

namespace proftools {
namespace {

constexpr const char* kIdle = "(idle)";
constexpr const char* kRoot = "(root)";

}  // namespace

std::vector<ValueType> V8ValueTypes() {
  return {{"samples", "count"}, {"cpu", "microseconds"}, {"wall", "microseconds"}};
}

std::string V8FunctionName(const V8CallFrame& frame) {
  if (!frame.function_name.empty()) return frame.function_name;
  if (frame.url.empty()) return "(anonymous)";
  std::string name = "(anonymous " + frame.url;
  if (frame.line >= 0) {
    name += ":" + std::to_string(frame.line + 1);
    if (frame.column >= 0) name += ":" + std::to_string(frame.column + 1);
  }
  return name + ")";
}

uint64_t V8Location(Interner* interner, const V8CallFrame& frame) {
  if (frame.function_name == kRoot) return ParentLinkedStacks::kNoLocation;
  Function function;
  function.name = V8FunctionName(frame);
  function.file = frame.url;
  function.start_line = frame.line >= 0 ? frame.line + 1 : 0;
  Location location;
  location.lines.push_back(Line{interner->Function(function), function.start_line,
                                frame.line >= 0 && frame.column >= 0 ? frame.column + 1 : 0});
  return interner->Location(location);
}

void V8Profile::AddSamples(const std::vector<uint64_t>& nodes,
                           const std::vector<int64_t>& deltas_ns, uint64_t byte) {
  if (nodes.size() != deltas_ns.size()) {
    Fail(byte, std::to_string(nodes.size()) + " samples but " + std::to_string(deltas_ns.size()) +
                   " timeDeltas: each sample needs the time since the one before");
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    samples_.push_back(RawSample{nodes[i], deltas_ns[i], byte, i});
  }
}

void V8Profile::Fail(uint64_t byte, const std::string& message) const {
  throw ProfError(name_, "byte " + std::to_string(byte) + ": " + message);
}

void V8Profile::Convert(Interner* interner, uint64_t source_id, const std::vector<Label>& labels,
                        ProfileSink* sink) {
  // Nodes by id; a parent given by a `children` list or by `parent`, which must agree.
  std::unordered_map<uint64_t, size_t> index;
  index.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!index.emplace(nodes_[i].id, i).second) {
      Fail(nodes_[i].byte, "node " + std::to_string(nodes_[i].id) + " is defined twice");
    }
  }
  for (const V8Node& node : nodes_) {
    for (const uint64_t child : node.children) {
      const auto it = index.find(child);
      if (it == index.end()) {
        Fail(node.byte, "node " + std::to_string(node.id) + " has a child " +
                            std::to_string(child) + " that is not among the nodes");
      }
      V8Node& c = nodes_[it->second];
      if (c.parent && *c.parent != node.id) {
        Fail(node.byte, "node " + std::to_string(child) + " has two parents, " +
                            std::to_string(*c.parent) + " and " + std::to_string(node.id));
      }
      c.parent = node.id;
    }
  }
  ParentLinkedStacks stacks(interner, name_);
  for (const V8Node& node : nodes_) {
    if (node.parent) {
      if (*node.parent == node.id) {
        Fail(node.byte, "node " + std::to_string(node.id) + " is its own parent");
      }
      if (index.count(*node.parent) == 0) {
        Fail(node.byte, "node " + std::to_string(node.id) + " has a parent " +
                            std::to_string(*node.parent) + " that is not among the nodes");
      }
    }
    stacks.Add(node.id, node.parent ? *node.parent : ParentLinkedStacks::kNoParent,
               V8Location(interner, node.frame));
  }

  // Times: the start plus the running sum of the deltas; then in time order.
  struct Timed {
    int64_t time;
    size_t sample;
  };
  std::vector<Timed> timed(samples_.size());
  int64_t time = start_ns_.value_or(0);
  bool ordered = true;
  for (size_t i = 0; i < samples_.size(); ++i) {
    const RawSample& s = samples_[i];
    if (__builtin_add_overflow(time, s.delta_ns, &time)) {
      Fail(s.byte, "samples[" + std::to_string(s.index) +
                       "]: its time is beyond what 64-bit nanoseconds hold");
    }
    if (time < 0) {
      Fail(s.byte, "samples[" + std::to_string(s.index) +
                       "]: its time (startTime plus the timeDeltas so far) is before 0");
    }
    if (i > 0 && time < timed[i - 1].time) ordered = false;
    timed[i] = Timed{time, i};
  }
  if (!ordered) {
    std::stable_sort(timed.begin(), timed.end(),
                     [](const Timed& a, const Timed& b) { return a.time < b.time; });
  }

  Sample sample;
  sample.source_id = source_id;
  sample.labels = labels;
  for (size_t i = 0; i < timed.size(); ++i) {
    const RawSample& s = samples_[timed[i].sample];
    const auto it = index.find(s.node);
    if (it == index.end()) {
      Fail(s.byte, "samples[" + std::to_string(s.index) + "]: node " + std::to_string(s.node) +
                       " is not among the nodes");
    }
    try {
      sample.stack_id = stacks.StackOf(s.node);
    } catch (const ProfError& e) {
      Fail(nodes_[it->second].byte, e.diagnostic().message);
    }
    // The interval until the next sample; the last one's until the end, when there is one.
    int64_t interval = 0;
    if (i + 1 < timed.size()) {
      interval = timed[i + 1].time - timed[i].time;
    } else if (end_ns_ && *end_ns_ > timed[i].time) {
      interval = *end_ns_ - timed[i].time;
    }
    const int64_t us = (interval + 500) / 1000;
    const bool idle = nodes_[it->second].frame.function_name == kIdle;
    sample.time_nanos = timed[i].time;
    sample.duration_nanos = interval;
    sample.values = {1, idle ? 0 : us, us};
    sink->OnSample(sample);
  }
}

}  // namespace proftools
