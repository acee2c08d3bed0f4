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

uint64_t V8Location(Interner* interner, const V8CallFrame& frame, int64_t at_line) {
  if (frame.function_name == kRoot) return ParentLinkedStacks::kNoLocation;
  Function function;
  function.name = V8FunctionName(frame);
  function.file = frame.url;
  function.start_line = frame.line >= 0 ? frame.line + 1 : 0;
  Location location;
  if (at_line > 0) {
    location.lines.push_back(Line{interner->Function(function), at_line, 0});
  } else {
    location.lines.push_back(Line{interner->Function(function), function.start_line,
                                  frame.line >= 0 && frame.column >= 0 ? frame.column + 1 : 0});
  }
  return interner->Location(location);
}

void V8Profile::AddSamples(std::vector<uint64_t> nodes, std::vector<int64_t> deltas_ns,
                           uint64_t byte) {
  if (nodes.size() != deltas_ns.size()) {
    Fail(byte, std::to_string(nodes.size()) + " samples but " + std::to_string(deltas_ns.size()) +
                   " timeDeltas: each sample needs the time since the one before");
  }
  parts_.push_back(Part{sample_nodes_.size(), byte});
  if (sample_nodes_.empty()) {
    sample_nodes_ = std::move(nodes);
    sample_deltas_ = std::move(deltas_ns);
  } else {
    sample_nodes_.insert(sample_nodes_.end(), nodes.begin(), nodes.end());
    sample_deltas_.insert(sample_deltas_.end(), deltas_ns.begin(), deltas_ns.end());
  }
}

void V8Profile::FailSample(size_t i, const std::string& message) const {
  const auto part = std::upper_bound(parts_.begin(), parts_.end(), i,
                                     [](size_t at, const Part& p) { return at < p.first; }) -
                    1;
  Fail(part->byte, "samples[" + std::to_string(i - part->first) + "]: " + message);
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
  // The lines of positionTicks: a node of its own for each, beside the node (the same parent),
  // numbered after every id the input has. first_line[i]: node i's first in `lines`.
  struct TickLine {
    uint64_t node;  // in `stacks`
    uint64_t ticks;
  };
  std::vector<TickLine> lines;
  std::vector<size_t> first_line(nodes_.size() + 1, 0);
  uint64_t next_id = 0;
  for (const V8Node& node : nodes_) next_id = std::max(next_id, node.id);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    first_line[i] = lines.size();
    const V8Node& node = nodes_[i];
    if (node.frame.function_name == kRoot) continue;  // no frame to give a line
    for (const V8PositionTicks& at : node.position_ticks) {
      if (at.line <= 0 || at.ticks == 0 || next_id == UINT64_MAX) continue;
      stacks.Add(++next_id, node.parent ? *node.parent : ParentLinkedStacks::kNoParent,
                 V8Location(interner, node.frame, at.line));
      lines.push_back({next_id, at.ticks});
    }
  }
  first_line[nodes_.size()] = lines.size();
  std::vector<uint64_t> seen(lines.empty() ? 0 : nodes_.size(), 0);  // samples so far, by node

  // Times: the start plus the running sum of the deltas; then in time order.
  const size_t n = sample_nodes_.size();
  std::vector<int64_t> times(n);
  int64_t time = start_ns_.value_or(0);
  bool ordered = true;
  for (size_t i = 0; i < n; ++i) {
    if (__builtin_add_overflow(time, sample_deltas_[i], &time)) {
      FailSample(i, "its time is beyond what 64-bit nanoseconds hold");
    }
    if (time < 0) FailSample(i, "its time (startTime plus the timeDeltas so far) is before 0");
    if (i > 0 && time < times[i - 1]) ordered = false;
    times[i] = time;
  }
  std::vector<size_t> order;  // only when out of order: the samples by time
  if (!ordered) {
    order.resize(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return times[a] < times[b]; });
  }

  Sample sample;
  sample.source_id = source_id;
  sample.labels = labels;
  sample.values.resize(3);
  uint64_t last_node = 0;   // consecutive samples often share a node: its lookup is reused
  uint64_t node_stack = 0;  // last_node's stack
  size_t last_index = SIZE_MAX;
  bool idle = false;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = ordered ? k : order[k];
    const uint64_t node = sample_nodes_[i];
    if (last_index == SIZE_MAX || node != last_node) {
      const auto it = index.find(node);
      if (it == index.end()) {
        FailSample(i, "node " + std::to_string(node) + " is not among the nodes");
      }
      try {
        node_stack = stacks.StackOf(node);
      } catch (const ProfError& e) {
        Fail(nodes_[it->second].byte, e.diagnostic().message);
      }
      last_node = node;
      last_index = it->second;
      idle = nodes_[last_index].frame.function_name == kIdle;
    }
    sample.stack_id = node_stack;
    if (first_line[last_index] != first_line[last_index + 1]) {
      // The line of this sample: the node's samples go to its lines' ticks in turn.
      uint64_t before = seen[last_index]++;
      for (size_t l = first_line[last_index]; l < first_line[last_index + 1]; ++l) {
        if (before < lines[l].ticks) {
          sample.stack_id = stacks.StackOf(lines[l].node);
          break;
        }
        before -= lines[l].ticks;
      }
    }
    // The interval until the next sample; the last one's until the end, when there is one.
    int64_t interval = 0;
    if (k + 1 < n) {
      interval = times[ordered ? k + 1 : order[k + 1]] - times[i];
    } else if (end_ns_ && *end_ns_ > times[i]) {
      interval = *end_ns_ - times[i];
    }
    const int64_t us = (interval + 500) / 1000;
    sample.time_nanos = times[i];
    sample.duration_nanos = interval;
    sample.values[0] = 1;
    sample.values[1] = idle ? 0 : us;
    sample.values[2] = us;
    sink->OnSample(sample);
  }
}

}  // namespace proftools
