#include "common/filter/show_from.h"

#include <utility>

namespace proftools {

ShowFrom::ShowFrom(std::shared_ptr<const re2::RE2> regex) : MatchingTransform(std::move(regex)) {}

bool ShowFrom::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  SplitIntoRuns(*frames, &runs_);
  kept_.clear();
  size_t cut = 0;  // frames kept: up to the last (root-most) matching location
  bool matched = false;
  for (const FrameRun run : runs_) {
    size_t end = run.end;
    bool match = matcher_.RunMapping(defs, *frames, run);
    for (size_t i = run.end; !match && i-- > run.begin;) {
      const Line* line = LineOf(defs, (*frames)[i]);
      if (line != nullptr && matcher_.Function(defs, line->function_id)) {
        match = true;
        end = i + 1;
      }
    }
    kept_.insert(kept_.end(), frames->begin() + run.begin, frames->begin() + end);
    if (match) {
      matched = true;
      cut = kept_.size();
    }
  }
  if (!matched) return false;
  kept_.resize(cut);
  frames->swap(kept_);
  return true;
}

}  // namespace proftools
