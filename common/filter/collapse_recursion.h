// --collapse-recursion: a cycle repeated directly in a stack is kept once, so that
// `a b c b c b c d e e e f` (root first) becomes `a b c d e f` (background 004's canonical
// traces, `a (b c)* d e* f`). Frames are compared by function; the leaf and the set of functions
// of every stack are kept, so each function's flat and cumulative values do not change.
#ifndef PROFTOOLS_COMMON_FILTER_COLLAPSE_RECURSION_H_
#define PROFTOOLS_COMMON_FILTER_COLLAPSE_RECURSION_H_

#include <cstdint>
#include <vector>

#include "common/filter/stack_transform.h"

namespace proftools {

// A block of kept frames that stood for a directly repeated cycle: positions `first..last`
// (inclusive) in the result of CollapseRepeats, root first.
struct CollapsedCycle {
  size_t first = 0;
  size_t last = 0;
};

// Removes, root to leaf, every block that repeats the block just before it (a square `X X`
// becomes `X`), checking after each frame, so the result has no adjacent repeated block.
// `keys` identify frames (e.g. function ids), root first; returns the indexes kept, root first.
// With `cycles`, also says which kept blocks were repeated (sorted by first, outer before
// inner), so that a report can write `a (b c)* d e* f` for `a b c b c d e e f`.
std::vector<size_t> CollapseRepeats(const std::vector<uint64_t>& keys,
                                    std::vector<CollapsedCycle>* cycles = nullptr);

class CollapseRecursion : public StackTransform {
 public:
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;

 private:
  std::vector<uint64_t> keys_;
  std::vector<FrameRef> kept_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_COLLAPSE_RECURSION_H_
