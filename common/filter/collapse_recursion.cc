#include "common/filter/collapse_recursion.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "common/base/flat_index.h"

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

// Stacks up to this depth try every length (no lookups); deeper ones only the likely ones.
constexpr size_t kShallowStack = 16;

// The length of the square the kept frames end in, or 0: `lengths` yields the lengths to try,
// shortest first.
template <typename Lengths>
size_t SquareAtEnd(const std::vector<uint64_t>& keys, const std::vector<size_t>& kept,
                   Lengths lengths) {
  const size_t n = kept.size();
  size_t found = 0;
  lengths([&](size_t length) {
    if (2 * length > n) return false;
    for (size_t k = 0; k < length; ++k) {
      if (keys[kept[n - 2 * length + k]] != keys[kept[n - length + k]]) return true;
    }
    found = length;
    return false;
  });
  return found;
}

// Stacks up to this depth are first checked for a square at all (MayHaveSquare), and keep
// their keys' places in a SmallKeyTable.
constexpr size_t kCheckedStack = 128;

// A value per key for up to kCheckedStack keys, in a table on the stack at most half full, a
// power of two as large as the keys need (most stacks are short): a new key's value is 0.
template <typename Value>
class SmallKeyTable {
 public:
  explicit SmallKeyTable(size_t keys) {
    while (size_ < 2 * keys) size_ *= 2;
    for (size_t k = 0; k < size_; ++k) slots_[k].used = false;
  }
  Value& operator[](uint64_t key) {
    size_t at = static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 56) & (size_ - 1);
    while (slots_[at].used && slots_[at].key != key) at = (at + 1) & (size_ - 1);
    if (!slots_[at].used) slots_[at] = Slot{key, Value{}, true};
    return slots_[at].value;
  }

 private:
  struct Slot {
    uint64_t key;
    Value value;
    bool used;
  };
  std::array<Slot, 2 * kCheckedStack> slots_;
  size_t size_ = 8;
};

// Whether `keys` (at most kCheckedStack) may hold a square anywhere: false only when surely not,
// and then nothing is collapsed (a square in the original stack is what the first removal
// needs, and without a removal the kept frames stay the original's). A square's halves start
// with equal keys, so each key is tried against its earlier places (found through a table on
// the stack) as the start of a second half; past a budget of comparisons, "maybe". Most stacks
// call no function twice, or not in a repeated cycle: a pass over them, where the general way
// built a table of every key (a tenth of prof-html's page writing on a million samples).
bool MayHaveSquare(const std::vector<uint64_t>& keys) {
  const size_t n = keys.size();
  SmallKeyTable<int32_t> last_place(n);       // key -> its last place + 1 (0: none yet)
  std::array<int32_t, kCheckedStack> before;  // place -> its key's place before, or -1
  size_t budget = 16 * n;
  for (size_t j = 0; j < n; ++j) {
    int32_t& last = last_place[keys[j]];
    before[j] = last - 1;
    last = static_cast<int32_t>(j) + 1;
    for (int32_t i = before[j]; i >= 0; i = before[static_cast<size_t>(i)]) {
      const size_t length = j - static_cast<size_t>(i);
      if (j + length > n) break;  // earlier places make longer halves still
      size_t k = 1;
      while (k < length && keys[static_cast<size_t>(i) + k] == keys[j + k]) ++k;
      if (k == length) return true;
      if (budget < k) return true;
      budget -= k;
    }
  }
  return false;
}

}  // namespace

std::vector<size_t> CollapseRepeats(const std::vector<uint64_t>& keys,
                                    std::vector<CollapsedCycle>* cycles) {
  std::vector<size_t> kept;
  if (cycles != nullptr) cycles->clear();
  if (keys.size() <= kCheckedStack && !MayHaveSquare(keys)) {
    kept.resize(keys.size());
    for (size_t i = 0; i < kept.size(); ++i) kept[i] = i;
    return kept;
  }
  // A deep stack tries only the lengths at which the last frame's key also stands before it
  // (where a square could end), nearest first, through a chain of each key's places in `kept`:
  // a 10,000-level recursion of distinct functions costs a lookup a frame, not half its depth.
  // A short one (most) tries every length, which costs less than the lookups.
  const bool deep = keys.size() > kShallowStack;
  // Each key's last place in `kept` (+ 1; 0: none), found through a flat index (an
  // unordered_map took a node a frame: two million for the 50,000 stacks of 40 frames of a
  // million-sample profile, a quarter of prof-html's page writing), or for a stack of up to
  // kCheckedStack frames (most) through a table on the stack, at most half full (a flat index
  // of its own for each stack was two thirds of the time of the stacks that have a square).
  FlatIndex key_index;
  std::vector<size_t> places;
  const bool small = deep && keys.size() <= kCheckedStack;
  SmallKeyTable<size_t> small_places(small ? keys.size() : 0);
  auto last_place = [&](uint64_t key) -> size_t& {
    if (small) return small_places[key];
    bool added;
    const uint32_t at = key_index.FindOrAdd(key, static_cast<uint32_t>(places.size()), &added);
    if (added) places.push_back(0);
    return places[at];
  };
  std::vector<size_t> before;  // place -> its key's place before, + 1
  for (size_t i = 0; i < keys.size(); ++i) {
    kept.push_back(i);
    const size_t n = kept.size();
    size_t length = 0;
    if (!deep) {
      length = SquareAtEnd(keys, kept, [&](auto try_length) {
        for (size_t l = 1; try_length(l); ++l) {
        }
      });
    } else {
      size_t& last = last_place(keys[i]);
      before.resize(n);
      before[n - 1] = last;
      last = n;
      length = SquareAtEnd(keys, kept, [&](auto try_length) {
        // Places only go down the chain (each before the one it is reached from): checked, so
        // that a mistake could not loop.
        for (size_t place = before[n - 1]; place != 0 && place < n && try_length(n - place);) {
          const size_t next = before[place - 1];
          if (next >= place) break;
          place = next;
        }
      });
      // The second copy goes: its frames' places with it (each the last of its key's; the
      // copy's earliest place of a key is undone last).
      for (size_t at = n; at > n - length;) {
        --at;
        last_place(keys[kept[at]]) = before[at];
      }
    }
    // After each frame, the kept frames end in at most one square: a shorter one would have been
    // removed when its last frame came.
    if (length == 0) continue;
    kept.resize(n - length);
    if (cycles != nullptr) NoteCycle(n - 2 * length, n - length - 1, cycles);
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
