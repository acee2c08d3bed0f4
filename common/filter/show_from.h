// --show-from, as pprof's -show_from (profile.ShowFrom): only the frames from the root-most
// match to the leaf are kept; samples with no match are dropped. Within a location, a match by
// function keeps the lines from the outermost matching one inwards (its inlined callers go), in
// every location that matches, as pprof trims the location itself; a match by the mapping's
// file keeps the whole location.
#ifndef PROFTOOLS_COMMON_FILTER_SHOW_FROM_H_
#define PROFTOOLS_COMMON_FILTER_SHOW_FROM_H_

#include <memory>
#include <vector>

#include "common/filter/frame_matcher.h"
#include "common/filter/stack_transform.h"

namespace proftools {

class ShowFrom : public MatchingTransform {
 public:
  explicit ShowFrom(std::shared_ptr<const re2::RE2> regex);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_SHOW_FROM_H_
