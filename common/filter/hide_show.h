// --hide and --show, as pprof's -hide and -show (profile.FilterSamplesByName): --hide removes
// the frames that match (a whole location when its mapping's file matches), --show keeps only
// those (a whole location when its mapping's file matches, as long as it has lines: pprof keeps
// lines, so a location without any never shows). A sample left with no frame is dropped.
#ifndef PROFTOOLS_COMMON_FILTER_HIDE_SHOW_H_
#define PROFTOOLS_COMMON_FILTER_HIDE_SHOW_H_

#include <memory>
#include <vector>

#include "common/filter/frame_matcher.h"
#include "common/filter/stack_transform.h"

namespace proftools {

class HideShowFrames : public MatchingTransform {
 public:
  enum class Mode { kHide, kShow };
  HideShowFrames(Mode mode, std::shared_ptr<const re2::RE2> regex);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;

 private:
  Mode mode_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_HIDE_SHOW_H_
