// A V8 CPU profile as the Profiler domain of the DevTools protocol gives it, in a .cpuprofile
// file or in a trace's Profile and ProfileChunk events: nodes (a call frame each, linked by
// children or by parent), and samples (a node each) with the time since the previous sample.
// V8Profile collects them in any order (a chunk's samples may name nodes of a later chunk) and
// converts them once complete: one raw sample per entry of `samples`.
//
// The rules, as Chrome DevTools' CPUProfileDataModel counts (formats/prof-text.md names them
// too): a sample's time is the profile's startTime plus the running sum of the deltas up to it;
// samples out of time order (negative deltas) are put in time order first; a sample stands for
// the interval until the NEXT sample (the last one: until endTime, or nothing without one). That
// interval is its DURATION and its wall time; its cpu time too, except for "(idle)" samples: V8
// was waiting, not running. "(root)" is no frame; "(program)", "(idle)" and "(garbage collector)"
// are frames of their own, so that --ignore '(idle)' drops the idle samples. A node's
// positionTicks (samples per line of its function) give its samples their lines, in the order
// the list has them (V8 does not say which sample was at which line: the lines' totals are
// exact, their order in time is not); samples past the ticks keep the function's line.
#ifndef PROFTOOLS_COMMON_CHROME_V8_PROFILE_H_
#define PROFTOOLS_COMMON_CHROME_V8_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/interner.h"
#include "common/model/model.h"
#include "common/model/reader_spec.h"
#include "common/model/sink.h"

namespace proftools {

struct V8CallFrame {
  std::string function_name;
  std::string url;
  int64_t line = -1;    // 0-based, -1: unknown (as the protocol has it)
  int64_t column = -1;  // 0-based, -1: unknown
};

// How many of a node's samples were at a line of its function (positionTicks: `line` 1-based).
struct V8PositionTicks {
  int64_t line = 0;
  uint64_t ticks = 0;
};

struct V8Node {
  uint64_t id = 0;
  std::optional<uint64_t> parent;
  std::vector<uint64_t> children;
  V8CallFrame frame;
  std::vector<V8PositionTicks> position_ticks;
  uint64_t byte = 0;  // where it is in the input, for messages
};

// The value types every V8 profile converts to, in this order; cpu is the default.
std::vector<ValueType> V8ValueTypes();
inline constexpr const char* kV8DefaultType = "cpu";

// The name a frame is shown by: the function's name, or for an anonymous function
// `(anonymous URL:LINE:COL)` (1-based), where its source is.
std::string V8FunctionName(const V8CallFrame& frame);

// The location of `frame` interned through `interner` (its function named by V8FunctionName, its
// 0-based line and column 1-based), or ParentLinkedStacks::kNoLocation for "(root)", which is no
// frame. Shared by the CPU and the heap profiles. With `at_line` (1-based), the location is that
// line of the frame's function (its column unknown): a line positionTicks names.
uint64_t V8Location(Interner* interner, const V8CallFrame& frame, int64_t at_line = 0);

class V8Profile {
 public:
  // `name` names the input in messages.
  explicit V8Profile(std::string name) : name_(std::move(name)) {}

  void AddNode(V8Node node) { nodes_.push_back(std::move(node)); }
  // Moves the nodes of `other` here.
  void TakeNodes(V8Profile* other) {
    for (V8Node& node : other->nodes_) nodes_.push_back(std::move(node));
    other->nodes_.clear();
  }
  // Samples in the order of the input; `byte` is where their array is, for messages.
  void AddSamples(std::vector<uint64_t> nodes, std::vector<int64_t> deltas_ns, uint64_t byte);
  void SetStart(int64_t ns) { start_ns_ = ns; }
  void SetEnd(int64_t ns) { end_ns_ = ns; }
  size_t sample_count() const { return sample_nodes_.size(); }

  // What a cut or partial profile lacks (a trace saved with part of its chunks, a recording
  // stopped mid-profile): samples that do not resolve to a stack (their node, or a node on the
  // way to the root, is not in the file, or the parents go round) are left out and counted;
  // children ids no node has are ignored and counted. `first` says what the first is.
  struct Unresolved {
    uint64_t samples = 0, links = 0;
    uint64_t first_byte = 0;  // where the first is, and what it is
    std::string first;
  };
  // Interns stacks through `interner` and sends one sample per entry of `samples` that
  // resolves to `sink`, with `labels`, in time order; adds what did not to `unresolved`.
  // Returns how many it sent. Throws ProfError for a node defined twice or with two parents,
  // its own parent, or times beyond 64-bit nanoseconds.
  uint64_t Convert(Interner* interner, uint64_t source_id, const std::vector<Label>& labels,
                   ProfileSink* sink, Unresolved* unresolved);
  // After Convert (of one profile or several): refuses `name` when none of its `total` samples
  // resolved (`sent` 0), else warns of what was left out, in one warning.
  static void Report(const Unresolved& unresolved, uint64_t sent, uint64_t total,
                     const std::string& name, const ReadContext& context);

 private:
  // Where the samples of each AddSamples call start, for messages.
  struct Part {
    size_t first;
    uint64_t byte;
  };
  [[noreturn]] void Fail(uint64_t byte, const std::string& message) const;
  // Whether node i's way to the root is whole (every parent in the file, no cycle), memoized
  // in `state`; `note(byte, what)` is told why not, the first time.
  enum : int8_t { kUnknown = 0, kVisiting, kResolves, kFails };
  template <typename Note>
  bool Resolves(size_t i, const std::unordered_map<uint64_t, size_t>& index,
                std::vector<int8_t>* state, const Note& note) const;
  // Sample `i`'s array (the AddSamples call that gave it): where it starts, and i's place in it.
  const Part& PartOf(size_t i) const;
  uint64_t SampleByte(size_t i) const { return PartOf(i).byte; }
  size_t SampleIndex(size_t i) const { return i - PartOf(i).first; }
  // Throws "samples[I]: message" at the array that holds sample `i`.
  [[noreturn]] void FailSample(size_t i, const std::string& message) const;

  std::string name_;
  std::vector<V8Node> nodes_;
  // The samples as arrays (millions of them in a long profile): node ids and time deltas.
  std::vector<uint64_t> sample_nodes_;
  std::vector<int64_t> sample_deltas_;
  std::vector<Part> parts_;
  std::optional<int64_t> start_ns_, end_ns_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8_PROFILE_H_
