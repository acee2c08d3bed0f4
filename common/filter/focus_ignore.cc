#include "common/filter/focus_ignore.h"

#include <utility>

namespace proftools {

FocusIgnore::FocusIgnore(std::shared_ptr<const re2::RE2> focus,
                         std::shared_ptr<const re2::RE2> ignore) {
  if (focus) focus_.emplace(std::move(focus));
  if (ignore) ignore_.emplace(std::move(ignore));
}

bool FocusIgnore::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  SplitIntoRuns(*frames, &runs_);
  bool focused = !focus_;
  for (const FrameRun run : runs_) {
    if (ignore_ && ignore_->Run(defs, *frames, run)) return false;
    focused = focused || focus_->Run(defs, *frames, run);
  }
  return focused;
}

}  // namespace proftools
