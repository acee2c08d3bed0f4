#include "common/model/stack_dedup.h"

#include <string>

#include "common/base/diagnostics.h"

namespace proftools {

void StackDedupSink::OnStack(const Stack& stack) {
  if (stack.id == last_id_ && last_id_ != 0) return;
  bool is_new = false;
  last_id_ = stack.id;
  last_interned_ = table_.Intern(stack.location_ids, &is_new);
  if (!is_new) return;
  new_stack_.id = last_interned_;
  new_stack_.location_ids.assign(stack.location_ids.begin(), stack.location_ids.end());
  out_->OnStack(new_stack_);
}

void StackDedupSink::OnSample(const Sample& sample) {
  if (sample.stack_id != last_id_ || last_id_ == 0) {
    throw ProfError("(reader)", "internal error: a sample of stack " +
                                    std::to_string(sample.stack_id) +
                                    ", which is not the last stack defined");
  }
  sample_.source_id = sample.source_id;
  sample_.stack_id = last_interned_;
  sample_.time_nanos = sample.time_nanos;
  sample_.duration_nanos = sample.duration_nanos;
  sample_.values.assign(sample.values.begin(), sample.values.end());
  labels_.Lend(sample, &sample_, [&] { out_->OnSample(sample_); });
}

}  // namespace proftools
