#include "common/model/canonical_order.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

[[noreturn]] void Undefined(const char* kind, uint64_t id) {
  throw ProfError("(writer)", std::string("internal error: ") + kind + " " + std::to_string(id) +
                                  " was used before it was defined");
}

}  // namespace

void CanonicalOrder::OnHeader(const ProfileHeader& header) {
  ProfileHeader out = header;
  std::stable_sort(out.meta.begin(), out.meta.end(),
                   [](const MetaEntry& a, const MetaEntry& b) { return a.key < b.key; });
  uint64_t next_source = 0;
  for (Source& source : out.sources) {
    uint64_t ignored;
    source_ids_.Insert(source.id, ++next_source, &ignored);
    source.id = next_source;
  }
  out_->OnHeader(out);
}

void CanonicalOrder::OnMapping(const Mapping& mapping) {
  mappings_.Define(mapping);
  mappings_.order.push_back(mapping.id);
}

void CanonicalOrder::OnFunction(const Function& function) {
  functions_.Define(function);
  functions_.order.push_back(function.id);
}

void CanonicalOrder::OnLocation(const Location& location) {
  locations_.Define(location);
  locations_.order.push_back(location.id);
}

void CanonicalOrder::OnStack(const Stack& stack) {
  stacks_.order.push_back(stack.id);
  // A repeated id keeps its first definition, whether that waits in the slot or in the map.
  if (StackPending(stack.id)) return;
  if (last_stack_pending_) stacks_.Define(std::move(last_stack_));
  last_stack_.id = stack.id;
  last_stack_.location_ids.assign(stack.location_ids.begin(), stack.location_ids.end());
  last_stack_pending_ = true;
}

template <typename T>
void CanonicalOrder::Pending<T>::Define(T record) {
  uint64_t ignored;
  if (written.Contains(record.id) || !position.Insert(record.id, records.size(), &ignored)) return;
  records.push_back(std::move(record));
  ++waiting;
}

template <typename T>
bool CanonicalOrder::Take(Pending<T>* pending, uint64_t id, const char* kind, T* record) {
  uint64_t done;
  if (pending->written.Find(id, &done)) {
    record->id = done;
    return false;
  }
  uint64_t at;
  if (!pending->position.Find(id, &at)) Undefined(kind, id);
  *record = std::move(pending->records[at]);
  // None waits: the vector starts again (the positions of taken ids stay, never read again).
  if (--pending->waiting == 0) pending->records.clear();
  record->id = pending->written.size() + 1;
  pending->written.Insert(id, record->id, &done);
  return true;
}

uint64_t CanonicalOrder::PassMapping(uint64_t id) {
  Mapping mapping;
  if (Take(&mappings_, id, "mapping", &mapping)) out_->OnMapping(mapping);
  return mapping.id;
}

uint64_t CanonicalOrder::PassFunction(uint64_t id) {
  Function function;
  if (Take(&functions_, id, "function", &function)) out_->OnFunction(function);
  return function.id;
}

uint64_t CanonicalOrder::PassLocation(uint64_t id) {
  Location location;
  if (!Take(&locations_, id, "location", &location)) return location.id;
  // Its mapping and functions go first, in that order.
  if (location.mapping_id != 0) location.mapping_id = PassMapping(location.mapping_id);
  for (Line& line : location.lines) line.function_id = PassFunction(line.function_id);
  out_->OnLocation(location);
  return location.id;
}

void CanonicalOrder::RenumberLocations(const std::vector<uint64_t>& location_ids) {
  std::vector<uint64_t>& ids = out_stack_.location_ids;
  ids.clear();
  for (uint64_t location_id : location_ids) {
    // Most locations of a large profile are already passed on: that lookup stays inline here.
    // PassLocation does not touch out_stack_, so collecting into it here is safe.
    uint64_t new_id;
    if (!locations_.written.Find(location_id, &new_id)) new_id = PassLocation(location_id);
    ids.push_back(new_id);
  }
}

uint64_t CanonicalOrder::PassStack(uint64_t id) {
  uint64_t done;
  if (stacks_.written.Find(id, &done)) return done;
  if (last_stack_pending_ && last_stack_.id == id) {
    last_stack_pending_ = false;
    RenumberLocations(last_stack_.location_ids);
    out_stack_.id = stacks_.written.size() + 1;
    stacks_.written.Insert(id, out_stack_.id, &done);
  } else {
    Stack stack;
    Take(&stacks_, id, "stack", &stack);  // not written before: taken now
    RenumberLocations(stack.location_ids);
    out_stack_.id = stack.id;
  }
  out_->OnStack(out_stack_);
  return out_stack_.id;
}

void CanonicalOrder::OnSample(const Sample& sample) {
  Sample& out = out_sample_;
  out.stack_id = PassStack(sample.stack_id);
  if (!source_ids_.Find(sample.source_id, &out.source_id)) Undefined("source", sample.source_id);
  out.time_nanos = sample.time_nanos;
  out.duration_nanos = sample.duration_nanos;
  out.values.assign(sample.values.begin(), sample.values.end());
  labels_.Lend(sample, &out, [&] { out_->OnSample(out); });
}

void CanonicalOrder::OnEnd() {
  for (uint64_t id : mappings_.order) {
    if (mappings_.Waits(id)) PassMapping(id);
  }
  for (uint64_t id : functions_.order) {
    if (functions_.Waits(id)) PassFunction(id);
  }
  for (uint64_t id : locations_.order) {
    if (locations_.Waits(id)) PassLocation(id);
  }
  for (uint64_t id : stacks_.order) {
    if (StackPending(id)) PassStack(id);
  }
  out_->OnEnd();
}

}  // namespace proftools
