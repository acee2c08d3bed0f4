// --focus-seq 'A;B;C' (background 004's "sequence of frames of interest"): keeps the samples whose
// stack holds frames matching A, B and C consecutively, root to leaf, and re-roots each at the
// root-most such A (the frames above it go). A frame matches as in pprof's filters (its
// function's name or file name, or its location's mapping's file). With one expression it is
// --focus RE --show-from RE, except that --show-from also cuts the inlined callers of matching
// lines in locations below the first.
#ifndef PROFTOOLS_COMMON_FILTER_FOCUS_SEQUENCE_H_
#define PROFTOOLS_COMMON_FILTER_FOCUS_SEQUENCE_H_

#include <memory>
#include <vector>

#include "common/filter/frame_matcher.h"
#include "common/filter/stack_transform.h"

namespace proftools {

class FocusSequence : public StackTransform {
 public:
  // `sequence`: root to leaf, not empty.
  explicit FocusSequence(const std::vector<std::shared_ptr<re2::RE2>>& sequence);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;

 private:
  std::vector<FrameMatcher> sequence_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_FOCUS_SEQUENCE_H_
