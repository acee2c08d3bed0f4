#include "common/filter/hide_show.h"

#include <utility>

namespace proftools {

HideShowFrames::HideShowFrames(Mode mode, std::shared_ptr<const re2::RE2> regex)
    : MatchingTransform(std::move(regex)), mode_(mode) {}

bool HideShowFrames::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  // A stack that is empty already has nothing to hide; under --show it shows nothing.
  if (frames->empty()) return mode_ == Mode::kHide;
  const bool show = mode_ == Mode::kShow;
  SplitIntoRuns(*frames, &runs_);
  kept_.clear();
  for (const FrameRun run : runs_) {
    if (matcher_.RunMapping(defs, *frames, run)) {
      // As pprof: --show keeps the location's lines, so a location without any goes too.
      if (show && LineOf(defs, (*frames)[run.begin]) != nullptr) {
        kept_.insert(kept_.end(), frames->begin() + run.begin, frames->begin() + run.end);
      }
      continue;
    }
    for (size_t i = run.begin; i < run.end; ++i) {
      const Line* line = LineOf(defs, (*frames)[i]);
      // Without lines only the mapping could match: hidden by --show, kept by --hide.
      const bool match = line != nullptr && matcher_.Function(defs, line->function_id);
      if (match == show) kept_.push_back((*frames)[i]);
    }
  }
  if (kept_.empty()) return false;
  frames->swap(kept_);
  return true;
}

}  // namespace proftools
