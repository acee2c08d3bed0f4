#include "common/filter/prune_frames.h"

#include <utility>

namespace proftools {

DropFrames::DropFrames(std::shared_ptr<const re2::RE2> drop, std::shared_ptr<const re2::RE2> keep)
    : drop_(std::move(drop)) {
  if (keep) keep_.emplace(std::move(keep));
}

size_t DropFrames::DropLine(const Definitions& defs, const std::vector<FrameRef>& frames,
                            FrameRun run) {
  for (size_t i = run.end; i-- > run.begin;) {
    const Line* line = LineOf(defs, frames[i]);
    if (line == nullptr) continue;
    if (drop_.SimplifiedName(defs, line->function_id) &&
        !(keep_ && keep_->SimplifiedName(defs, line->function_id))) {
      return i;
    }
  }
  return run.end;
}

bool DropFrames::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  SplitIntoRuns(*frames, &runs_);
  drop_lines_.clear();
  bool any = false;
  for (const FrameRun run : runs_) {
    drop_lines_.push_back(DropLine(defs, *frames, run));
    any = any || drop_lines_.back() != run.end;
  }
  if (!any) return true;
  // From the root: the first matching location after a non-matching one is where the cut is.
  size_t first_run = 0;  // leaf-most run kept
  bool found_user = false;
  for (size_t r = runs_.size(); r-- > 0;) {
    const bool matches = drop_lines_[r] != runs_[r].end;
    if (!matches) {
      found_user = true;
    } else if (found_user) {
      // Wholly when the outermost line matched; else the location stays, its outer lines only.
      first_run = drop_lines_[r] + 1 == runs_[r].end ? r + 1 : r;
      break;
    }
  }
  kept_.clear();
  for (size_t r = first_run; r < runs_.size(); ++r) {
    const FrameRun run = runs_[r];
    // A location that matched below its outermost line keeps only its outer lines, everywhere.
    const bool trim = drop_lines_[r] + 1 < run.end;
    kept_.insert(kept_.end(), frames->begin() + (trim ? drop_lines_[r] + 1 : run.begin),
                 frames->begin() + run.end);
  }
  frames->swap(kept_);
  return true;
}

PruneFrom::PruneFrom(std::shared_ptr<const re2::RE2> regex) : MatchingTransform(std::move(regex)) {}

bool PruneFrom::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  SplitIntoRuns(*frames, &runs_);
  kept_.clear();
  bool found = false;
  for (const FrameRun run : runs_) {
    size_t begin = run.begin;
    for (size_t i = run.begin; i < run.end; ++i) {
      const Line* line = LineOf(defs, (*frames)[i]);
      if (line != nullptr && matcher_.SimplifiedName(defs, line->function_id)) {
        // The lines inlined into the innermost match go (wherever the location occurs), and
        // below the leaf-most matching location, everything.
        begin = i;
        if (!found) kept_.clear();
        found = true;
        break;
      }
    }
    kept_.insert(kept_.end(), frames->begin() + begin, frames->begin() + run.end);
  }
  frames->swap(kept_);
  return true;
}

}  // namespace proftools
