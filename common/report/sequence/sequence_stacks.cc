#include "common/report/sequence/sequence_stacks.h"

#include "common/base/saturating.h"

#include "common/filter/collapse_recursion.h"
#include "common/report/reports.h"

namespace proftools {

SequenceStacks::SequenceStacks(const StackTotals& totals, int value_index,
                               Granularity granularity) {
  FrameExpander expander(totals.defs(), granularity);
  std::vector<size_t> seen_in;  // per frame id: the last stack (+1) that held it
  // Each location's frames named once, in the order a walk from the root meets them.
  LocationNumbers frame_ids(LocationNumbers::Order::kOutermostFirst);
  auto name_of = [&](const Frame& frame) {
    const uint32_t id = names_.Intern(frame.name);
    if (id == appears_twice_.size()) {
      appears_twice_.push_back(false);
      seen_in.push_back(0);
    }
    return id;
  };
  std::unordered_map<std::vector<uint32_t>, size_t, IdSequenceHash> stack_index;
  std::vector<uint32_t> ids;  // a stack's frame ids, root first
  std::vector<uint64_t> keys;
  std::vector<uint32_t> root_first;
  for (size_t e = 0; e < totals.entries().size(); ++e) {
    const StackTotals::Entry& entry = totals.entries()[e];
    const int64_t value = entry.values[value_index];
    if (value == 0) continue;
    const proftools::Stack* defined = totals.defs().stacks.Find(entry.stack_id);
    if (defined == nullptr) continue;
    ids.clear();
    frame_ids.AppendStack(&expander, *defined, LocationNumbers::Walk::kFromTheRoot, name_of, &ids);
    keys.clear();
    for (const uint32_t id : ids) {
      if (seen_in[id] == e + 1) appears_twice_[id] = true;
      seen_in[id] = e + 1;
      keys.push_back(id);
    }
    if (keys.empty()) continue;
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
    if (const int64_t* base_values = totals.base_values(entry); base_values == nullptr) {
      AddMagnitudeSaturating(&stack.weight, value);
    } else {
      const int64_t base = base_values[value_index];
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
