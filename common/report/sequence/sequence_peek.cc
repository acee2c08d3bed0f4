#include "common/report/sequence/sequence_peek.h"

#include <algorithm>
#include <string>

#include "common/base/saturating.h"

namespace proftools {
namespace {

// Sums of values per frame, kept as a list compacted (sorted by frame, equal frames summed)
// whenever it has doubled: no hashing per addition, and at most twice the distinct frames held.
class EdgeSums {
 public:
  void Add(uint32_t frame, int64_t value) {
    edges_.push_back(PeekEdge{frame, value});
    if (edges_.size() >= 2 * compacted_ + 16) Compact();
  }
  const std::vector<PeekEdge>& Compacted() {
    Compact();
    return edges_;
  }

 private:
  void Compact() {
    std::sort(edges_.begin(), edges_.end(),
              [](const PeekEdge& a, const PeekEdge& b) { return a.frame < b.frame; });
    size_t kept = 0;
    for (size_t i = 0; i < edges_.size(); ++i) {
      if (kept > 0 && edges_[kept - 1].frame == edges_[i].frame) {
        edges_[kept - 1].value += edges_[i].value;
      } else {
        edges_[kept++] = edges_[i];
      }
    }
    edges_.resize(kept);
    compacted_ = kept;
  }

  std::vector<PeekEdge> edges_;
  size_t compacted_ = 0;
};

// Sums a peek's values as stacks holding it are found.
class PeekBuilder {
 public:
  explicit PeekBuilder(std::vector<uint32_t> frames) { peek_.frames = std::move(frames); }

  // A stack of `value` holding the sequence first at `first` and last at `last` (frame indexes;
  // the sequence has `length` frames).
  void Add(const std::vector<uint32_t>& stack, int64_t value, size_t first, size_t last,
           size_t length) {
    peek_.cum += value;
    if (first != last) peek_.recursive = true;
    callers_.Add(first > 0 ? stack[first - 1] : PeekEdge::kEnd, value);
    const size_t after = last + length;
    callees_.Add(after < stack.size() ? stack[after] : PeekEdge::kEnd, value);
    if (after == stack.size()) peek_.self += value;
  }

  Peek Finish(const SequenceStacks& stacks) {
    if (peek_.frames.size() == 1 && stacks.AppearsTwice(peek_.frames[0])) peek_.recursive = true;
    peek_.callers = Sorted(stacks, &callers_, "[root]");
    peek_.callees = Sorted(stacks, &callees_, "[self]");
    return std::move(peek_);
  }

 private:
  // Largest |value| first, then by name, as pprof sorts edges.
  static std::vector<PeekEdge> Sorted(const SequenceStacks& stacks, EdgeSums* sums,
                                      const std::string& end_name) {
    std::vector<PeekEdge> edges = sums->Compacted();
    auto name = [&](uint32_t frame) -> const std::string& {
      return frame == PeekEdge::kEnd ? end_name : stacks.Name(frame);
    };
    std::sort(edges.begin(), edges.end(), [&](const PeekEdge& a, const PeekEdge& b) {
      if (Magnitude(a.value) != Magnitude(b.value)) return Magnitude(a.value) > Magnitude(b.value);
      return name(a.frame) < name(b.frame);
    });
    return edges;
  }

  Peek peek_;
  EdgeSums callers_;
  EdgeSums callees_;
};

}  // namespace

Peek PeekSequence(const SequenceStacks& stacks, const std::vector<uint32_t>& frames) {
  PeekBuilder builder(frames);
  const size_t length = frames.size();
  for (const SequenceStacks::Stack& stack : stacks.stacks()) {
    const std::vector<uint32_t>& s = stack.frames;
    size_t first = SIZE_MAX;
    size_t last = SIZE_MAX;
    for (size_t i = 0; length > 0 && i + length <= s.size(); ++i) {
      if (!std::equal(frames.begin(), frames.end(), s.begin() + i)) continue;
      if (first == SIZE_MAX) first = i;
      last = i;
    }
    if (first != SIZE_MAX) builder.Add(s, stack.value, first, last, length);
  }
  return builder.Finish(stacks);
}

std::vector<Peek> PeekFrames(const SequenceStacks& stacks, const std::vector<bool>& matches) {
  std::vector<size_t> builder_of(stacks.frame_count(), SIZE_MAX);
  std::vector<PeekBuilder> builders;
  for (uint32_t frame = 0; frame < stacks.frame_count(); ++frame) {
    if (!matches[frame]) continue;
    builder_of[frame] = builders.size();
    builders.emplace_back(std::vector<uint32_t>{frame});
  }
  // Per matching frame: where the current stack holds it first and last.
  std::vector<size_t> first(builders.size(), SIZE_MAX);
  std::vector<size_t> last(builders.size(), SIZE_MAX);
  std::vector<size_t> held;  // builders the current stack holds
  for (const SequenceStacks::Stack& stack : stacks.stacks()) {
    held.clear();
    for (size_t i = 0; i < stack.frames.size(); ++i) {
      const size_t b = builder_of[stack.frames[i]];
      if (b == SIZE_MAX) continue;
      if (first[b] == SIZE_MAX) {
        first[b] = i;
        held.push_back(b);
      }
      last[b] = i;
    }
    for (size_t b : held) {
      builders[b].Add(stack.frames, stack.value, first[b], last[b], 1);
      first[b] = SIZE_MAX;
    }
  }
  std::vector<Peek> peeks;
  for (PeekBuilder& builder : builders) peeks.push_back(builder.Finish(stacks));
  std::sort(peeks.begin(), peeks.end(), [&](const Peek& a, const Peek& b) {
    if (Magnitude(a.self) != Magnitude(b.self)) return Magnitude(a.self) > Magnitude(b.self);
    const std::string& a_name = stacks.Name(a.frames[0]);
    const std::string& b_name = stacks.Name(b.frames[0]);
    if (a_name != b_name) return a_name < b_name;
    return Magnitude(a.cum) > Magnitude(b.cum);
  });
  return peeks;
}

}  // namespace proftools
