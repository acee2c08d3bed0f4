// Stacks deduplicated by content, as a stage of a sink chain: for a producer that defines the
// stack of each sample anew, just before the sample, under an id of its own, and leaves the
// interning to the consumer's side of a thread channel. What comes out is what the producer's
// Interner would have sent: each distinct stack once, numbered 1, 2, 3, ... in order of first
// appearance, and every sample pointing at it. Only the last stack's id is remembered (memory
// grows with distinct stacks, not samples): a sample of any other id is an internal error.
// perf2prof's conversion thread is the critical path of a large recording while the thread
// writing the text waits; moving the stacks' hashing and their table there balances the two.
#ifndef PROFTOOLS_COMMON_MODEL_STACK_DEDUP_H_
#define PROFTOOLS_COMMON_MODEL_STACK_DEDUP_H_

#include <cstdint>

#include "common/model/lent_labels.h"
#include "common/model/sink.h"
#include "common/model/stack_table.h"

namespace proftools {

class StackDedupSink : public ProfileSink {
 public:
  explicit StackDedupSink(ProfileSink* out) : out_(out) {}
  void OnHeader(const ProfileHeader& header) override { out_->OnHeader(header); }
  void OnMapping(const Mapping& mapping) override { out_->OnMapping(mapping); }
  void OnFunction(const Function& function) override { out_->OnFunction(function); }
  void OnLocation(const Location& location) override { out_->OnLocation(location); }
  // A repeated definition of the last id keeps the first, as everywhere in the model.
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override { out_->OnEnd(); }

 private:
  ProfileSink* out_;
  StackTable table_;
  uint64_t last_id_ = 0;        // the producer's id of the last stack (0: none yet)
  uint64_t last_interned_ = 0;  // the id of its content
  Stack new_stack_;
  Sample sample_;      // OnSample's copy, its vectors reused
  LentLabels labels_;  // sample_'s
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_STACK_DEDUP_H_
