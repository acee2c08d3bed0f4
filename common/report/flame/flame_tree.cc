#include "common/report/flame/flame_tree.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "common/base/saturating.h"

namespace proftools {
namespace {

// What a frame of a drawn stack gives its node: name and source ids (in names_) and kind.
struct FrameInfo {
  uint32_t name, source;
  FrameKind kind;
};

// Every drawn stack as frames, root first, in one flat array of FrameInfo indices (4 bytes a
// frame: a stack a million frames deep is a million of them): what the tree is built from.
struct Paths {
  std::vector<uint32_t> frames;
  std::vector<size_t> starts;  // path i is [starts[i], starts[i + 1])
  std::vector<int64_t> values;
  size_t size() const { return values.size(); }
};

}  // namespace

uint32_t FlameTree::Intern(const std::string& text) {
  names_.push_back(text);
  return static_cast<uint32_t>(names_.size() - 1);
}

// As flamegraph.pl does with its sorted folded lines: the stacks sorted by their names, root
// first, so that stacks sharing a prefix are adjacent; each then adds nodes only past what it
// shares with the one before, and children come out in name order. No lookup per frame.
FlameTree::FlameTree(const StackTotals& totals, const FlameTreeOptions& options,
                     const StackTotals* base, int base_value_index) {
  nodes_.emplace_back();
  nodes_[0].name = Intern("all");
  nodes_[0].source = Intern("");  // not interned below: a frame named "" keeps its own id
  std::unordered_map<std::string, uint32_t> name_ids;  // names and sources, interned once
  auto intern = [&](const std::string& text) {
    auto [it, added] = name_ids.try_emplace(text, 0);
    if (added) it->second = Intern(text);
    return it->second;
  };

  FrameExpander expander(totals.defs(), options.granularity);
  // Each location's frames as FrameInfo indices, innermost first, made once a location.
  LocationNumbers location_infos;
  std::vector<FrameInfo> infos;
  auto info_of = [&](const Frame& frame) {
    infos.push_back({intern(frame.name), intern(frame.source), frame.kind});
    return static_cast<uint32_t>(infos.size() - 1);
  };
  Paths paths;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const int64_t value = entry.values[options.value_index];
    if (value <= 0) continue;
    const Stack* stack = totals.defs().stacks.Find(entry.stack_id);
    if (stack == nullptr) continue;
    const size_t start = paths.frames.size();
    location_infos.AppendStack(
        &expander, *stack,
        options.reverse ? LocationNumbers::Walk::kFromTheLeaf : LocationNumbers::Walk::kFromTheRoot,
        info_of, &paths.frames);
    if (paths.frames.size() == start) continue;  // no frames: not drawn
    paths.starts.push_back(start);
    paths.values.push_back(value);
  }
  paths.starts.push_back(paths.frames.size());

  // Names ranked bytewise, then the paths sorted by their ranks (stable: among equal paths the
  // first seen gives the nodes their kind and source).
  std::vector<uint32_t> by_name(names_.size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::sort(by_name.begin(), by_name.end(),
            [&](uint32_t a, uint32_t b) { return names_[a] < names_[b]; });
  std::vector<uint32_t> rank(names_.size());
  for (uint32_t r = 0; r < by_name.size(); ++r) rank[by_name[r]] = r;
  std::vector<uint32_t> info_rank(infos.size());  // each frame's name's rank
  for (size_t i = 0; i < infos.size(); ++i) info_rank[i] = rank[infos[i].name];
  std::vector<size_t> order(paths.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::lexicographical_compare(
        paths.frames.begin() + paths.starts[a], paths.frames.begin() + paths.starts[a + 1],
        paths.frames.begin() + paths.starts[b], paths.frames.begin() + paths.starts[b + 1],
        [&](uint32_t x, uint32_t y) { return info_rank[x] < info_rank[y]; });
  });

  // At most a node a frame: room for them at once (a deep stack of a million frames moved its
  // nodes twenty times as they grew; pages not used are never touched).
  nodes_.reserve(nodes_.size() + paths.frames.size());
  // Children counted as they are made, each at child_start_[parent + 2], so that the counts'
  // sums, shifted by one, give where each parent's children go as they are placed below.
  child_start_.assign(nodes_.size() + paths.frames.size() + 2, 0);
  std::vector<uint32_t> chain = {0};  // the nodes of the previous path, root first
  size_t previous = SIZE_MAX;
  for (size_t p : order) {
    const size_t start = paths.starts[p], length = paths.starts[p + 1] - start;
    size_t shared = 0;
    if (previous != SIZE_MAX) {
      const size_t previous_start = paths.starts[previous];
      const size_t previous_length = paths.starts[previous + 1] - previous_start;
      while (shared < length && shared < previous_length &&
             info_rank[paths.frames[start + shared]] ==
                 info_rank[paths.frames[previous_start + shared]]) {
        ++shared;
      }
    }
    chain.resize(shared + 1);
    // The nodes it shares with the path before add its value; the ones it adds start with it.
    for (uint32_t node : chain) AddSaturating(&nodes_[node].value, paths.values[p]);
    for (size_t d = shared; d < length; ++d) {
      const FrameInfo& info = infos[paths.frames[start + d]];
      Node child;
      child.value = paths.values[p];
      child.name = info.name;
      child.source = info.source;
      child.kind = info.kind;
      child.depth = static_cast<uint32_t>(d + 1);
      child.parent = chain.back();
      ++child_start_[child.parent + 2];
      const uint32_t index = static_cast<uint32_t>(nodes_.size());
      nodes_.push_back(child);
      chain.push_back(index);
    }
    max_depth_ = std::max(max_depth_, static_cast<uint32_t>(length));
    previous = p;
  }
  // Children by parent; a parent's in the order they were made, which is their names' order.
  child_start_.resize(nodes_.size() + 2);
  for (size_t i = 2; i < child_start_.size(); ++i) child_start_[i] += child_start_[i - 1];
  child_list_.resize(nodes_.size() - 1);
  for (size_t i = 1; i < nodes_.size(); ++i) {
    child_list_[child_start_[nodes_[i].parent + 1]++] = static_cast<uint32_t>(i);
  }
  child_start_.pop_back();  // child_start_[n] is now where n's children start
  if (base != nullptr) AddBase(*base, base_value_index, options);
}

// Each base stack walks down the tree by name as far as the tree has it (nodes only the base
// has are not drawn, as difffolded.pl draws the second profile), adding to `base` on the way.
void FlameTree::AddBase(const StackTotals& base, int value_index, const FlameTreeOptions& options) {
  base_.assign(nodes_.size(), 0);
  FrameExpander expander(base.defs(), options.granularity);
  std::vector<const Frame*> frames;
  for (const StackTotals::Entry& entry : base.entries()) {
    int64_t value = entry.values[value_index];
    if (value <= 0) continue;
    frames.clear();
    expander.StackFrames(entry.stack_id, &frames);
    if (frames.empty()) continue;
    if (!options.reverse) std::reverse(frames.begin(), frames.end());
    if (options.base_scale != 1) {
      value = static_cast<int64_t>(std::llround(static_cast<double>(value) * options.base_scale));
    }
    uint32_t node = 0;
    AddSaturating(&base_[0], value);
    for (const Frame* frame : frames) {
      const Children children = this->children(node);
      auto it = std::lower_bound(children.begin(), children.end(), frame->name,
                                 [&](uint32_t child, const std::string& name) {
                                   return names_[nodes_[child].name] < name;
                                 });
      if (it == children.end() || names_[nodes_[*it].name] != frame->name) break;
      node = *it;
      AddSaturating(&base_[node], value);
    }
  }
}

}  // namespace proftools
