#include "common/filter/focus_sequence.h"

namespace proftools {

FocusSequence::FocusSequence(const std::vector<std::shared_ptr<re2::RE2>>& sequence) {
  sequence_.reserve(sequence.size());
  for (const auto& regex : sequence) sequence_.emplace_back(regex);
}

bool FocusSequence::Apply(const Definitions& defs, std::vector<FrameRef>* frames) {
  const size_t n = sequence_.size();
  // Frames are leaf first: the sequence starts at `root` and goes towards index 0.
  for (size_t root = frames->size(); root >= n; --root) {  // `root` frames up to the match
    bool match = true;
    for (size_t k = 0; k < n && match; ++k) {
      match = sequence_[k].Frame(defs, (*frames)[root - 1 - k]);
    }
    if (match) {
      frames->resize(root);
      return true;
    }
  }
  return false;
}

}  // namespace proftools
