// pprof's two prunings by function name (profile/prune.go), matched against the name with its
// argument list cut off (SimplifiedFunctionName):
//
//   DropFrames: the profile's drop_frames/keep_frames, which pprof applies to every profile it
//     loads (Profile.RemoveUninteresting): the expressions are anchored (^(RE)$). A location
//     matches at its outermost line that matches drop_frames and not keep_frames; going from
//     the root, the first matching location below a non-matching one is cut, with its callees:
//     wholly when the matching line is its outermost, else only that line and the ones inlined
//     into it (such a location keeps only its outer lines wherever it occurs). Frames matching
//     at the root are kept, so that nothing is pruned to nothing.
//   PruneFrom (--prune-from, pprof's -prune_from): the callees of the leaf-most location that
//     matches are removed; within matching locations, the lines inlined into the innermost
//     matching line go too. Samples are never dropped.
#ifndef PROFTOOLS_COMMON_FILTER_PRUNE_FRAMES_H_
#define PROFTOOLS_COMMON_FILTER_PRUNE_FRAMES_H_

#include <memory>
#include <optional>
#include <vector>

#include "common/filter/frame_matcher.h"
#include "common/filter/stack_transform.h"

namespace proftools {

class DropFrames : public StackTransform {
 public:
  // `drop` and `keep` (may be null) are already anchored.
  DropFrames(std::shared_ptr<const re2::RE2> drop, std::shared_ptr<const re2::RE2> keep);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;

 private:
  // Index in the run of its outermost line that is to be dropped; run.end when none.
  size_t DropLine(const Definitions& defs, const std::vector<FrameRef>& frames, FrameRun run);

  FrameMatcher drop_;
  std::optional<FrameMatcher> keep_;
  std::vector<FrameRun> runs_;
  std::vector<size_t> drop_lines_;
  std::vector<FrameRef> kept_;
};

class PruneFrom : public MatchingTransform {
 public:
  explicit PruneFrom(std::shared_ptr<const re2::RE2> regex);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_PRUNE_FRAMES_H_
