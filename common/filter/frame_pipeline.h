// The stack transforms a FilterSpec asks for, in the order they apply: the profile's
// drop_frames (as pprof applies it on loading), --focus/--ignore (decided on the frames as
// loaded, as pprof decides them before hiding), --hide, --show, --show-from, each --focus-seq in
// the order given, --prune-from, --collapse-recursion: pprof's order (it prunes last), with
// --focus-seq after the filters it generalises and --collapse-recursion on what is left.
#ifndef PROFTOOLS_COMMON_FILTER_FRAME_PIPELINE_H_
#define PROFTOOLS_COMMON_FILTER_FRAME_PIPELINE_H_

#include <memory>
#include <string>
#include <vector>

#include "common/filter/filter_spec.h"
#include "common/filter/stack_transform.h"
#include "common/model/model.h"

namespace proftools {

// `header` gives drop_frames/keep_frames; `name` names the input in the error for a bad one.
// Sets `*dropped_frames` when the profile's drop_frames is applied.
std::vector<std::unique_ptr<StackTransform>> BuildFrameTransforms(const FrameSpec& spec,
                                                                  const ProfileHeader& header,
                                                                  const std::string& name,
                                                                  bool* dropped_frames);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_FRAME_PIPELINE_H_
