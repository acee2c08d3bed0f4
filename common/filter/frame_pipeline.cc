#include "common/filter/frame_pipeline.h"
#include "common/base/text_syntax.h"

#include <re2/re2.h>

#include "common/base/diagnostics.h"
#include "common/filter/collapse_recursion.h"
#include "common/filter/focus_ignore.h"
#include "common/filter/focus_sequence.h"
#include "common/filter/hide_show.h"
#include "common/filter/prune_frames.h"
#include "common/filter/show_from.h"

namespace proftools {
namespace {

// The profile's expression, anchored as pprof's RemoveUninteresting anchors it. A bad one is
// an error of the input (pprof silently skips it; --keep-dropped-frames reads such a profile).
std::shared_ptr<re2::RE2> ProfileRegex(const std::string& name, const char* record,
                                       const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  auto regex = std::make_shared<re2::RE2>("^(" + pattern + ")$", re2::RE2::Quiet);
  if (!regex->ok()) {
    throw ProfError(name, std::string(record) + ": bad regular expression " + Printable(pattern) +
                              ": " + regex->error() + " (--keep-dropped-frames ignores it)");
  }
  return regex;
}

}  // namespace

std::vector<std::unique_ptr<StackTransform>> BuildFrameTransforms(const FrameSpec& spec,
                                                                  const ProfileHeader& header,
                                                                  const std::string& name,
                                                                  bool* dropped_frames) {
  std::vector<std::unique_ptr<StackTransform>> out;
  *dropped_frames = false;
  // As pprof: keep_frames alone does nothing.
  if (spec.drop_frames && !header.drop_frames.empty()) {
    out.push_back(
        std::make_unique<DropFrames>(ProfileRegex(name, "drop_frames", header.drop_frames),
                                     ProfileRegex(name, "keep_frames", header.keep_frames)));
    *dropped_frames = true;
  }
  if (spec.focus || spec.ignore)
    out.push_back(std::make_unique<FocusIgnore>(spec.focus, spec.ignore));
  if (spec.hide) {
    out.push_back(std::make_unique<HideShowFrames>(HideShowFrames::Mode::kHide, spec.hide));
  }
  if (spec.show) {
    out.push_back(std::make_unique<HideShowFrames>(HideShowFrames::Mode::kShow, spec.show));
  }
  if (spec.show_from) out.push_back(std::make_unique<ShowFrom>(spec.show_from));
  for (const auto& sequence : spec.focus_seq) {
    out.push_back(std::make_unique<FocusSequence>(sequence));
  }
  if (spec.prune_from) out.push_back(std::make_unique<PruneFrom>(spec.prune_from));
  if (spec.collapse_recursion) out.push_back(std::make_unique<CollapseRecursion>());
  return out;
}

}  // namespace proftools
