// A few values remembered for the keys seen last, replaced in turn: samples mostly take turns
// between a few threads' label sets, and a look among the last few is cheaper than rendering,
// naming or hashing a sample's labels again (StackTotals' label sets, SampleTimeline's rows).
#ifndef PROFTOOLS_COMMON_BASE_RECENT_SLOTS_H_
#define PROFTOOLS_COMMON_BASE_RECENT_SLOTS_H_

#include <cstddef>
#include <vector>

namespace proftools {

template <typename Slot, size_t kSlots = 8>
class RecentSlots {
 public:
  RecentSlots() { slots_.reserve(kSlots); }

  // The first slot for which match(slot) holds, or null.
  template <typename Match>
  Slot* Find(Match match) {
    for (Slot& slot : slots_) {
      if (match(slot)) return &slot;
    }
    return nullptr;
  }
  // A slot to fill: a new one while there are fewer than kSlots, else the oldest filled. The
  // slots never move (their memory is reserved once).
  Slot& Replace() {
    if (slots_.size() < kSlots) return slots_.emplace_back();
    Slot& slot = slots_[next_];
    next_ = (next_ + 1) % kSlots;
    return slot;
  }

 private:
  std::vector<Slot> slots_;
  size_t next_ = 0;  // the slot replaced next once all are filled
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_BASE_RECENT_SLOTS_H_
