// --focus and --ignore, as pprof's -focus and -ignore (profile.FilterSamplesByName): a sample is
// kept when some location of its stack matches --focus (any line's function name or file name,
// or the mapping's file) and none matches --ignore. Frames are not changed.
#ifndef PROFTOOLS_COMMON_FILTER_FOCUS_IGNORE_H_
#define PROFTOOLS_COMMON_FILTER_FOCUS_IGNORE_H_

#include <memory>
#include <optional>
#include <vector>

#include "common/filter/frame_matcher.h"
#include "common/filter/stack_transform.h"

namespace proftools {

class FocusIgnore : public StackTransform {
 public:
  // Either may be null (not given). A stack with no frame matches no --focus, so it is dropped
  // by --focus and kept by --ignore alone (pprof drops it in both cases).
  FocusIgnore(std::shared_ptr<const re2::RE2> focus, std::shared_ptr<const re2::RE2> ignore);
  bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) override;

 private:
  std::optional<FrameMatcher> focus_, ignore_;
  std::vector<FrameRun> runs_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_FOCUS_IGNORE_H_
