#include "common/report/flame_tree.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "common/base/saturating.h"

namespace proftools {
namespace {

// Key of a child: its parent's index and its name's index.
uint64_t ChildKey(uint32_t parent, uint32_t name) {
  return uint64_t{parent} << 32 | name;
}

}  // namespace

uint32_t FlameTree::Intern(const std::string& text) {
  names_.push_back(text);
  return static_cast<uint32_t>(names_.size() - 1);
}

FlameTree::FlameTree(const StackTotals& totals, const FlameTreeOptions& options,
                     const StackTotals* base, int base_value_index) {
  nodes_.emplace_back();
  nodes_[0].name = Intern("all");
  nodes_[0].source = Intern("");
  std::unordered_map<std::string, uint32_t> name_ids;
  std::unordered_map<uint64_t, uint32_t> children;
  auto add = [&](const StackTotals& from, int value_index, bool to_base) {
    FrameExpander expander(from.defs(), options.granularity);
    std::vector<const Frame*> frames;
    for (const StackTotals::Entry& entry : from.entries()) {
      int64_t value = entry.values[value_index];
      if (value <= 0) continue;
      if (to_base && options.base_scale != 1) {
        value = static_cast<int64_t>(std::llround(static_cast<double>(value) * options.base_scale));
      }
      frames.clear();
      expander.StackFrames(entry.stack_id, &frames);  // leaf first
      if (frames.empty()) continue;
      if (!options.reverse) std::reverse(frames.begin(), frames.end());
      uint32_t node = 0;
      AddSaturating(to_base ? &nodes_[0].base : &nodes_[0].value, value);
      for (const Frame* frame : frames) {
        auto [name_it, new_name] = name_ids.try_emplace(frame->name, 0);
        if (new_name) name_it->second = Intern(frame->name);
        const uint64_t key = ChildKey(node, name_it->second);
        if (to_base && children.count(key) == 0) break;  // drawn only where the profile has it
        auto [child_it, new_child] = children.try_emplace(key, 0);
        if (new_child) {
          child_it->second = static_cast<uint32_t>(nodes_.size());
          Node child;
          child.name = name_it->second;
          child.source = Intern(frame->source);
          child.kind = frame->kind;
          child.depth = nodes_[node].depth + 1;
          max_depth_ = std::max(max_depth_, child.depth);
          nodes_[node].children.push_back(child_it->second);
          nodes_.push_back(std::move(child));
        }
        node = child_it->second;
        AddSaturating(to_base ? &nodes_[node].base : &nodes_[node].value, value);
      }
    }
  };
  add(totals, options.value_index, false);
  if (base != nullptr) add(*base, base_value_index, true);
  Sort();
}

void FlameTree::Sort() {
  for (Node& node : nodes_) {
    std::sort(node.children.begin(), node.children.end(), [this](uint32_t a, uint32_t b) {
      return names_[nodes_[a].name] < names_[nodes_[b].name];
    });
  }
}

}  // namespace proftools
