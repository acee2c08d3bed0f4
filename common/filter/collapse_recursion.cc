#include "common/filter/collapse_recursion.h"

#include <algorithm>

namespace proftools {
namespace {

// The kept block first..last was just repeated: cycles noted inside the removed copy (after
// `last`) went with it; the block itself is noted once however often it repeats.
void NoteCycle(size_t first, size_t last, std::vector<CollapsedCycle>* cycles) {
  cycles->erase(std::remove_if(cycles->begin(), cycles->end(),
                               [&](const CollapsedCycle& c) { return c.first > last; }),
                cycles->end());
  for (const CollapsedCycle& c : *cycles) {
    if (c.first == first && c.last == last) return;
  }
  cycles->push_back(CollapsedCycle{first, last});
}

}  // namespace

std::vector<size_t> CollapseRepeats(const std::vector<uint64_t>& keys,
                                    std::vector<CollapsedCycle>* cycles) {
  std::vector<size_t> kept;
  if (cycles != nullptr) cycles->clear();
  for (size_t i = 0; i < keys.size(); ++i) {
    kept.push_back(i);
    // After each frame, the kept frames end in at most one square: a shorter one would have been
    // removed when its last frame came. Stacks are short (tens of frames), so quadratic is fine.
    for (size_t length = 1; 2 * length <= kept.size(); ++length) {
      const size_t n = kept.size();
      bool square = true;
      for (size_t k = 0; k < length && square; ++k) {
        square = keys[kept[n - 2 * length + k]] == keys[kept[n - length + k]];
      }
      if (square) {
        kept.resize(n - length);
        if (cycles != nullptr) NoteCycle(n - 2 * length, n - length - 1, cycles);
        break;
      }
    }
  }
  if (cycles != nullptr) {
    std::sort(cycles->begin(), cycles->end(), [](const CollapsedCycle& a, const CollapsedCycle& b) {
      return a.first != b.first ? a.first < b.first : a.last > b.last;
    });
  }
  return kept;
}

bool CollapseRecursion::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  // Keys root first: frames are leaf first.
  keys_.clear();
  for (auto it = frames->rbegin(); it != frames->rend(); ++it) {
    const Location& location = *defs.locations.Find(it->location_id);
    // A frame without lines is identified by its location (an unsymbolized address).
    keys_.push_back(location.lines.empty() ? ~it->location_id
                                           : location.lines[it->line].function_id);
  }
  const std::vector<size_t> kept = CollapseRepeats(keys_);
  if (kept.size() == frames->size()) return true;
  kept_.clear();
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    kept_.push_back((*frames)[frames->size() - 1 - *it]);
  }
  frames->swap(kept_);
  return true;
}

}  // namespace proftools
