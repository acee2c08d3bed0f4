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

const V8Profile::Part& V8Profile::PartOf(size_t i) const {
  return *(std::upper_bound(parts_.begin(), parts_.end(), i,
                            [](size_t at, const Part& p) { return at < p.first; }) -
           1);
}

void V8Profile::FailSample(size_t i, const std::string& message) const {
  Fail(SampleByte(i), "samples[" + std::to_string(SampleIndex(i)) + "]: " + message);
}

void V8Profile::Fail(uint64_t byte, const std::string& message) const {
  throw ProfError(name_, "byte " + std::to_string(byte) + ": " + message);
}

template <typename Note>
bool V8Profile::Resolves(size_t i, const std::unordered_map<uint64_t, size_t>& index,
                         std::vector<int8_t>* state, const Note& note) const {
  // Up from node i until a node whose answer is known, the root, a parent not in the file or a
  // node met twice (a cycle); then the answer for every node on the way. Each node is walked
  // once in all (a deep tree sampled at every level stays linear).
  std::vector<size_t> path;
  int8_t answer = kResolves;
  for (size_t at = i;;) {
    if ((*state)[at] != kUnknown) {
      answer = (*state)[at] == kVisiting ? static_cast<int8_t>(kFails) : (*state)[at];
      if ((*state)[at] == kVisiting) {
        note(nodes_[at].byte,
             "the parents of node " + std::to_string(nodes_[at].id) + " go round (a cycle)");
      }
      break;
    }
    (*state)[at] = kVisiting;
    path.push_back(at);
    const V8Node& node = nodes_[at];
    if (!node.parent) break;
    const auto parent = index.find(*node.parent);
    if (parent == index.end()) {
      note(node.byte, "node " + std::to_string(node.id) + " has a parent " +
                          std::to_string(*node.parent) + " that is not among the nodes");
      answer = kFails;
      break;
    }
    at = parent->second;
  }
  for (const size_t at : path) (*state)[at] = answer;
  return answer == kResolves;
}

uint64_t V8Profile::Convert(Interner* interner, uint64_t source_id,
                            const std::vector<Label>& labels, ProfileSink* sink,
                            Unresolved* unresolved) {
  const auto note = [&](uint64_t byte, const std::string& what) {
    if (!unresolved->first.empty()) return;
    unresolved->first = what;
    unresolved->first_byte = byte;
  };
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
        ++unresolved->links;
        note(node.byte, "node " + std::to_string(node.id) + " has a child " +
                            std::to_string(child) + " that is not among the nodes");
        continue;
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
      // (A parent not among the nodes: the samples of this node and those under it do not
      // resolve, and are counted when met.)
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

  std::vector<int8_t> resolves(nodes_.size(), kUnknown);
  uint64_t sent = 0;
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
      last_node = node;
      last_index = SIZE_MAX;
      const auto it = index.find(node);
      if (it == index.end()) {
        note(SampleByte(i), "samples[" + std::to_string(SampleIndex(i)) + "]: node " +
                                std::to_string(node) + " is not among the nodes");
      } else if (Resolves(it->second, index, &resolves, note)) {
        try {
          node_stack = stacks.StackOf(node);
        } catch (const ProfError& e) {  // (the frames' bound) at the node's byte
          Fail(nodes_[it->second].byte, e.diagnostic().message);
        }
        last_index = it->second;
        idle = nodes_[last_index].frame.function_name == kIdle;
      }
    }
    if (last_index == SIZE_MAX) {  // its node does not resolve
      ++unresolved->samples;
      continue;
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
    ++sent;
  }
  return sent;
}

void V8Profile::Report(const Unresolved& unresolved, uint64_t sent, uint64_t total,
                       const std::string& name, const ReadContext& context) {
  const std::string at = "byte " + std::to_string(unresolved.first_byte) + ": ";
  if (total > 0 && sent == 0) {
    throw ProfError(name, at + unresolved.first +
                              ": no sample of the profile resolves to a stack (the file holds "
                              "none of the nodes its samples need)");
  }
  if (unresolved.samples == 0 && unresolved.links == 0) return;
  std::string what;
  if (unresolved.samples > 0) {
    what = std::to_string(unresolved.samples) + " of " + std::to_string(total) +
           (total == 1 ? " sample" : " samples") +
           " left out: their nodes, or nodes on the way to the root, are not in the file";
  }
  if (unresolved.links > 0) {
    what += (what.empty() ? "" : "; ") + std::to_string(unresolved.links) +
            (unresolved.links == 1 ? " child id" : " child ids") + " that no node has, ignored";
  }
  context.Warn(name, at + what + " (a cut or partial profile?); the first: " + unresolved.first);
}

}  // namespace proftools
