// Turning stacks into named frames for reports, at a chosen granularity (like pprof's
// -functions, -filefunctions, -files, -lines, -addresses).
#ifndef PROFTOOLS_COMMON_REPORT_FRAMES_H_
#define PROFTOOLS_COMMON_REPORT_FRAMES_H_

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "common/base/flat_index.h"
#include "common/base/id_table.h"
#include "common/model/definitions.h"

namespace proftools {

// kFileLines names a frame FILE:LINE and leaves out frames whose line is unknown (0), so that
// the leaf is the innermost frame with a known line: the view of R's summaryRprof(lines =
// "show").
enum class Granularity { kFunctions, kFileFunctions, kFiles, kLines, kAddresses, kFileLines };

// Parses "functions", "filefunctions", "files", "lines", "addresses" or "filelines".
bool ParseGranularity(const std::string& text, Granularity* out);

// What the profile knows about the code of a frame, from its mapping (kernel and JIT DSOs, as
// perf names them) and its location (an inlined call), for palettes by kind (prof-svg).
enum class FrameKind : uint8_t { kUser, kKernel, kJit, kInlined };

struct Frame {
  std::string name;      // what a report shows for this frame
  bool inlined = false;  // an inlined call: not the last line of its location
  FrameKind kind = FrameKind::kUser;
  std::string source;  // "FILE:LINE" (the function's start line at function granularity), or ""
};

// Expands locations and stacks into frames, leaf (innermost) first. Each location is expanded
// once and remembered, so cost grows with distinct locations, not with samples.
class FrameExpander {
 public:
  FrameExpander(const Definitions& defs, Granularity granularity);

  // The frames of one location: one per line entry, innermost first; a location without lines
  // gives one frame named after its mapping ("[libc.so.6]"), else "<unknown>" as in pprof. At
  // kFileLines, entries without a line number give no frame.
  const std::vector<Frame>& LocationFrames(uint64_t location_id);
  // The same frames with their names and inlined flags only (kind and source left as they
  // are by default), made at each call and valid until the next: for a caller that needs each
  // location's names once and keeps none of the frames (a hundred thousand locations' frames
  // and sources, kept, were a tenth of a call graph's --top).
  const std::vector<Frame>& LocationNames(uint64_t location_id);

  // Appends the frames of a stack, leaf first.
  void StackFrames(uint64_t stack_id, std::vector<const Frame*>* out);

 private:
  std::vector<Frame> Expand(const Location& location) const;
  // The frames' names and inlined flags; Expand adds kinds and sources.
  std::vector<Frame> ExpandNames(const Location& location) const;

  const Definitions& defs_;
  Granularity granularity_;
  // A location's frames: expanded_[by_location_.Find(id)]. Looked up once a frame of every
  // stack (a million-frame stack, a million lookups): open addressing, and a deque so that the
  // frames handed out stay where they are as more are added.
  FlatIndex by_location_;
  std::deque<std::vector<Frame>> expanded_;
  std::vector<Frame> names_;  // LocationNames' last
};

// Each location's frames turned into numbers once (a report's rows, a flame graph's frame
// kinds), so that a stack of any depth costs one lookup a location and no hash of a name a
// frame: Of() gives [first, last) of the location's numbers, innermost first, in number(i).
class LocationNumbers {
 public:
  // `make(frame)` gives a frame's number the first time its location is asked for, called
  // for its frames innermost first, or outermost first (the order a walk from the root meets
  // them, for numbers given in order of first sight).
  enum class Order { kInnermostFirst, kOutermostFirst };
  // kNames: `make` reads only the frames' names and inlined flags (FrameExpander::
  // LocationNames), and keeps no reference to a frame.
  enum class Reads { kFrames, kNames };
  explicit LocationNumbers(Order order = Order::kInnermostFirst, Reads reads = Reads::kFrames)
      : order_(order), reads_(reads) {}
  template <typename Make>
  std::pair<uint32_t, uint32_t> Of(FrameExpander* frames, uint64_t location_id, Make make) {
    uint64_t at;
    if (!index_.Insert(location_id, spans_.size(), &at)) return spans_[at];
    const uint32_t first = static_cast<uint32_t>(numbers_.size());
    const std::vector<Frame>& made = reads_ == Reads::kNames ? frames->LocationNames(location_id)
                                                             : frames->LocationFrames(location_id);
    numbers_.resize(first + made.size());
    for (size_t k = 0; k < made.size(); ++k) {  // numbers_ kept innermost first either way
      const size_t i = order_ == Order::kInnermostFirst ? k : made.size() - 1 - k;
      numbers_[first + i] = make(made[i]);
    }
    spans_.emplace_back(first, static_cast<uint32_t>(numbers_.size()));
    return spans_.back();
  }
  uint32_t number(uint32_t i) const { return numbers_[i]; }

  // Appends the numbers of `stack`'s frames to `out` in the order of a walk from the leaf (each
  // location's innermost frame first) or from the root (the reverse).
  enum class Walk { kFromTheLeaf, kFromTheRoot };
  template <typename Make>
  void AppendStack(FrameExpander* frames, const Stack& stack, Walk walk, Make make,
                   std::vector<uint32_t>* out) {
    VisitStack(frames, stack, walk, make, [out](uint32_t number) { out->push_back(number); });
  }
  // `visit(number)` for each of the stack's frames' numbers in AppendStack's order, for a
  // caller that needs them once (a report of 4 million frames wrote and read each again).
  template <typename Make, typename Visit>
  void VisitStack(FrameExpander* frames, const Stack& stack, Walk walk, Make make, Visit visit) {
    const std::vector<uint64_t>& locations = stack.location_ids;  // leaf first
    // Frame by frame (a location has one frame but for inlining): a range insert a location,
    // through reverse iterators, was most of the walk.
    if (walk == Walk::kFromTheLeaf) {
      for (uint64_t location : locations) {
        const auto [first, last] = Of(frames, location, make);
        for (uint32_t i = first; i < last; ++i) visit(numbers_[i]);
      }
    } else {
      for (auto location = locations.rbegin(); location != locations.rend(); ++location) {
        const auto [first, last] = Of(frames, *location, make);
        for (uint32_t i = last; i > first; --i) visit(numbers_[i - 1]);
      }
    }
  }

 private:
  Order order_;
  Reads reads_;
  // Location id -> its span: looked up once a frame, and ids are mostly dense (a flat vector,
  // one load; hashing each of a call graph's 4 million frames was a third of its report).
  IdMap index_;
  std::vector<std::pair<uint32_t, uint32_t>> spans_;
  std::vector<uint32_t> numbers_;
};

// The last path component of `path`.
std::string BaseName(const std::string& path);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_FRAMES_H_
