#include "common/report/sequence/sequence_stacks.h"

#include "common/base/saturating.h"

#include "common/filter/collapse_recursion.h"
#include "common/report/reports.h"

namespace proftools {

SequenceStacks::SequenceStacks(const StackTotals& totals, int value_index,
                               Granularity granularity) {
  FrameExpander expander(totals.defs(), granularity);
  std::unordered_map<const Frame*, uint32_t> frame_ids;  // each distinct frame named once
  std::unordered_map<std::vector<uint32_t>, size_t, IdSequenceHash> stack_index;
  std::vector<const Frame*> leaf_first;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> root_first;
  std::vector<size_t> seen_in;  // per frame id: the last stack (+1) that held it
  for (size_t e = 0; e < totals.entries().size(); ++e) {
    const StackTotals::Entry& entry = totals.entries()[e];
    const int64_t value = entry.values[value_index];
    if (value == 0) continue;
    leaf_first.clear();
    expander.StackFrames(entry.stack_id, &leaf_first);
    if (leaf_first.empty()) continue;
    keys.clear();
    for (auto it = leaf_first.rbegin(); it != leaf_first.rend(); ++it) {
      auto [known, added] = frame_ids.try_emplace(*it, 0);
      if (added) {
        known->second = names_.Intern((*it)->name);
        if (known->second == appears_twice_.size()) {
          appears_twice_.push_back(false);
          seen_in.push_back(0);
        }
      }
      const uint32_t id = known->second;
      if (seen_in[id] == e + 1) appears_twice_[id] = true;
      seen_in[id] = e + 1;
      keys.push_back(id);
    }
    root_first.clear();
    for (size_t kept : CollapseRepeats(keys))
      root_first.push_back(static_cast<uint32_t>(keys[kept]));
    auto [it, added] = stack_index.try_emplace(root_first, stacks_.size());
    if (added) stacks_.push_back(Stack{root_first, 0, 0});
    Stack& stack = stacks_[it->second];
    AddSaturating(&stack.value, value);
    // The weight is never negative, so that a sequence weighs at least as much as any longer
    // one: what lets counting prune level by level (sequence_counts.h). Of a difference, the
    // profile's and the base's magnitudes, which bound the difference's.
    if (entry.base_values.empty()) {
      AddMagnitudeSaturating(&stack.weight, value);
    } else {
      const int64_t base = entry.base_values[value_index];
      int64_t profile = value;
      AddSaturating(&profile, base);
      AddMagnitudeSaturating(&stack.weight, profile);
      AddMagnitudeSaturating(&stack.weight, base);
    }
  }
  for (uint32_t id = 0; id < appears_twice_.size(); ++id) {
    escaped_.push_back(EscapeFoldedFrame(names_.Text(id)));
  }
  for (uint32_t id = 0; id < escaped_.size(); ++id) by_escaped_.emplace(escaped_[id], id);
}

bool SequenceStacks::FindEscaped(std::string_view escaped, uint32_t* frame) const {
  auto it = by_escaped_.find(escaped);
  if (it == by_escaped_.end()) return false;
  *frame = it->second;
  return true;
}

std::string SequenceText(const SequenceStacks& stacks, const std::vector<uint32_t>& frames) {
  std::string text;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i > 0) text += ';';
    text += stacks.Escaped(frames[i]);
  }
  return text;
}

bool ParseSequence(const SequenceStacks& stacks, std::string_view text,
                   std::vector<uint32_t>* frames) {
  frames->clear();
  while (true) {
    const size_t end = text.find(';');
    uint32_t frame;
    if (!stacks.FindEscaped(text.substr(0, end), &frame)) return false;
    frames->push_back(frame);
    if (end == std::string_view::npos) return true;
    text.remove_prefix(end + 1);
  }
}

}  // namespace proftools
