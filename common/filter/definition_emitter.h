// The definitions of a filtered profile: only those its samples still use, each written just
// before its first use. Input definitions are looked up by their input ids; the output gets them
// through an Interner (new ids, content-addressed), so a stack whose frames a filter changed
// becomes a new stack, and a location that lost some of its inlined lines a new location.
#ifndef PROFTOOLS_COMMON_FILTER_DEFINITION_EMITTER_H_
#define PROFTOOLS_COMMON_FILTER_DEFINITION_EMITTER_H_

#include <cstdint>
#include <vector>

#include "common/base/id_table.h"
#include "common/model/definitions.h"
#include "common/model/interner.h"
#include "common/model/sink.h"

namespace proftools {

// One line of an input location: the unit stack filters work on. A stack is a list of them,
// leaf (innermost) first: each location's lines in order (lines[0] is the innermost).
struct FrameRef {
  uint64_t location_id = 0;
  uint32_t line = 0;  // index into the location's lines; 0 for a location without lines
  bool operator==(const FrameRef& o) const {
    return location_id == o.location_id && line == o.line;
  }
};

// The frames of one location occurrence within a stack: frames [begin, end), following lines
// of one location in increasing order.
struct FrameRun {
  size_t begin = 0, end = 0;
};
void SplitIntoRuns(const std::vector<FrameRef>& frames, std::vector<FrameRun>* runs);

class DefinitionEmitter {
 public:
  // `input` holds the input definitions (it grows as they arrive); `out` receives the output's.
  DefinitionEmitter(const Definitions& input, ProfileSink* out) : input_(input), interner_(out) {}

  // The output id of input stack `stack_id`, unchanged.
  uint64_t Stack(uint64_t stack_id);

  // The frames of input stack `stack_id`, leaf first.
  void Frames(uint64_t stack_id, std::vector<FrameRef>* frames) const;

  // The output id of a stack made of `frames`: runs of lines of one location become one
  // location (the input's own when the run is all its lines, in order).
  uint64_t StackOfFrames(const std::vector<FrameRef>& frames);

 private:
  uint64_t LocationId(uint64_t location_id);
  uint64_t MappingId(uint64_t mapping_id);
  uint64_t FunctionId(uint64_t function_id);

  const Definitions& input_;
  Interner interner_;
  IdMap stacks_, locations_, mappings_, functions_;  // input id -> output id
  std::vector<uint64_t> location_ids_;
  std::vector<FrameRun> runs_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_DEFINITION_EMITTER_H_
