#include "common/report/sequence/sequence_counts.h"

#include <algorithm>
#include <utility>

#include "common/base/id_table.h"
#include "common/base/saturating.h"

namespace proftools {

uint32_t SequenceCounts::Add(uint32_t prefix, uint32_t suffix, uint32_t last, uint32_t length) {
  CountedSequence sequence;
  sequence.prefix = prefix;
  sequence.suffix = suffix;
  sequence.last = last;
  sequence.length = length;
  sequences_.push_back(sequence);
  return static_cast<uint32_t>(sequences_.size() - 1);
}

SequenceCounts::SequenceCounts(const SequenceStacks& stacks, const SequenceLimits& limits)
    : limits_(limits) {
  constexpr uint32_t kNone = CountedSequence::kNone;
  const auto& all = stacks.stacks();
  // at[offset[s] + i]: the sequence of the current length starting at frame i of stack s
  // (kNone when it is not counted). Each level overwrites it in place, left to right.
  std::vector<size_t> offset(all.size() + 1, 0);
  for (size_t s = 0; s < all.size(); ++s) offset[s + 1] = offset[s] + all[s].frames.size();
  std::vector<uint32_t> at(offset.back(), kNone);
  std::vector<uint32_t> last_stack;  // per sequence: the last stack (+1) that counted it

  auto count = [&](uint32_t id, size_t s, bool at_leaf) {
    if (last_stack.size() <= id) last_stack.resize(id + 1, 0);
    CountedSequence& sequence = sequences_[id];
    if (last_stack[id] != s + 1) {
      last_stack[id] = static_cast<uint32_t>(s + 1);
      AddSaturating(&sequence.cum, all[s].value);
      AddSaturating(&sequence.cum_weight, all[s].weight);
    }
    if (at_leaf) {
      AddSaturating(&sequence.self, all[s].value);
      AddSaturating(&sequence.self_weight, all[s].weight);
    }
  };

  std::vector<uint32_t> of_frame(stacks.frame_count(), kNone);
  for (size_t s = 0; s < all.size(); ++s) {
    const std::vector<uint32_t>& frames = all[s].frames;
    for (size_t i = 0; i < frames.size(); ++i) {
      uint32_t& id = of_frame[frames[i]];
      if (id == kNone) id = Add(kNone, kNone, frames[i], 1);
      count(id, s, i + 1 == frames.size());
      at[offset[s] + i] = id;
    }
  }

  auto extends = [&](uint32_t id) {
    return id != kNone && sequences_[id].cum_weight >= limits_.min_value;
  };
  IdMap longer;  // (sequence, next frame) -> the sequence one frame longer
  // By cum, one frame more than listed, to tell the windows along a path that never branches
  // from the first (see Listed).
  const size_t counted_length = limits.max_length + (limits.by_self ? 0 : 1);
  for (uint32_t length = 2; length <= counted_length; ++length) {
    bool any = false;
    for (size_t s = 0; s < all.size(); ++s) {
      const std::vector<uint32_t>& frames = all[s].frames;
      if (frames.size() < length) continue;
      uint32_t* starts = &at[offset[s]];
      for (size_t i = 0; i + length <= frames.size(); ++i) {
        const uint32_t prefix = starts[i];
        const uint32_t suffix = starts[i + 1];
        if (!extends(prefix) || !extends(suffix)) {
          starts[i] = kNone;
          continue;
        }
        const uint32_t last = frames[i + length - 1];
        const uint64_t key = (uint64_t{prefix} << 32) | last;
        uint64_t id;
        if (!longer.Find(key, &id)) {
          id = Add(prefix, suffix, last, length);
          longer.Insert(key, id, &id);
        }
        count(static_cast<uint32_t>(id), s, i + length == frames.size());
        starts[i] = static_cast<uint32_t>(id);
        any = true;
      }
      starts[frames.size() - length + 1] = kNone;  // no sequence this long starts there
    }
    if (!any) break;
  }
}

std::vector<uint32_t> SequenceCounts::Frames(uint32_t sequence) const {
  std::vector<uint32_t> frames;
  for (uint32_t id = sequence; id != CountedSequence::kNone; id = sequences_[id].prefix) {
    frames.push_back(sequences_[id].last);
  }
  std::reverse(frames.begin(), frames.end());
  return frames;
}

std::vector<uint32_t> SequenceCounts::Listed(const SequenceStacks& stacks, size_t* hidden) const {
  auto value = [&](uint32_t id) {
    return limits_.by_self ? sequences_[id].self : sequences_[id].cum;
  };
  // Equal weights (never negative) mean the same stacks: what "contains with the same value"
  // tests, since equal values of a difference may come from other stacks.
  auto weight = [&](uint32_t id) {
    return limits_.by_self ? sequences_[id].self_weight : sequences_[id].cum_weight;
  };
  auto reaches = [&](uint32_t id) {
    return value(id) != 0 && Magnitude(value(id)) >= static_cast<uint64_t>(limits_.min_value);
  };
  std::vector<bool> contained(sequences_.size(), false);
  for (uint32_t id = 0; id < sequences_.size(); ++id) {
    const CountedSequence& sequence = sequences_[id];
    if (sequence.length == 1 || !reaches(id)) continue;
    if (sequence.length > limits_.max_length) {
      // `x;S` one frame longer than listed, with S and the window `x;S` less its last frame
      // of the same weight: one set of samples, seen through two windows; the first stays.
      const int64_t cum = sequences_[sequence.suffix].cum_weight;
      if (sequence.cum_weight == cum && sequences_[sequence.prefix].cum_weight == cum) {
        contained[sequence.suffix] = true;
      }
      continue;
    }
    // By self, only a longer sequence at the leaf says the same: `x;a;b` against `a;b`.
    if (!limits_.by_self && sequence.cum_weight == sequences_[sequence.prefix].cum_weight) {
      contained[sequence.prefix] = true;
    }
    if (weight(id) == weight(sequence.suffix)) contained[sequence.suffix] = true;
  }
  std::vector<uint32_t> listed;
  *hidden = 0;
  for (uint32_t id = 0; id < sequences_.size(); ++id) {
    if (sequences_[id].length > limits_.max_length) continue;
    if (!reaches(id)) continue;
    if (contained[id]) {
      ++*hidden;
    } else {
      listed.push_back(id);
    }
  }
  // Largest first, then shorter first, then by the bytes of the frames' names.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> sorted;
  for (uint32_t id : listed) sorted.emplace_back(id, Frames(id));
  std::sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
    if (Magnitude(value(a.first)) != Magnitude(value(b.first))) {
      return Magnitude(value(a.first)) > Magnitude(value(b.first));
    }
    if (value(a.first) != value(b.first)) return value(a.first) > value(b.first);
    if (a.second.size() != b.second.size()) return a.second.size() < b.second.size();
    return std::lexicographical_compare(
        a.second.begin(), a.second.end(), b.second.begin(), b.second.end(),
        [&](uint32_t x, uint32_t y) { return stacks.Name(x) < stacks.Name(y); });
  });
  for (size_t i = 0; i < sorted.size(); ++i) listed[i] = sorted[i].first;
  return listed;
}

}  // namespace proftools
