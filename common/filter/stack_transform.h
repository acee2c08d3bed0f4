// The interface of filters that change stacks (--hide, --show, --focus-seq,
// --collapse-recursion, ...): a function of a stack's frames, applied once per distinct stack.
#ifndef PROFTOOLS_COMMON_FILTER_STACK_TRANSFORM_H_
#define PROFTOOLS_COMMON_FILTER_STACK_TRANSFORM_H_

#include <vector>

#include "common/filter/definition_emitter.h"
#include "common/model/definitions.h"

namespace proftools {

class StackTransform {
 public:
  virtual ~StackTransform() = default;
  // Rewrites `frames` (leaf first) in place. Returns false when samples with this stack are to
  // be dropped. Must depend on the frames only (the result is cached per input stack).
  virtual bool Apply(const Definitions& defs, std::vector<FrameRef>* frames) = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_STACK_TRANSFORM_H_
