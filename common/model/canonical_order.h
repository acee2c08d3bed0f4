// The canonical order of a profile's records (formats/prof-text.md §7), for any writer.
//
// A sink that passes the profile on with ids renumbered in order of first use (sources in
// header order, 1, 2, ...) and each definition held back until the first sample that uses it
// (definitions no sample uses come at the end, in their order). Meta entries are sorted by key
// (stably). The canonical text writer is this order followed by formatting; prof-merge --pprof
// puts the pprof writer after it instead, so that its bytes are those of the canonical text
// read back by prof2pprof. Memory is bounded by definitions not yet passed on plus the id maps;
// samples pass as they arrive.
#ifndef PROFTOOLS_COMMON_MODEL_CANONICAL_ORDER_H_
#define PROFTOOLS_COMMON_MODEL_CANONICAL_ORDER_H_

#include <cstdint>
#include <vector>

#include "common/base/id_table.h"
#include "common/model/lent_labels.h"
#include "common/model/sink.h"

namespace proftools {

class CanonicalOrder : public ProfileSink {
 public:
  explicit CanonicalOrder(ProfileSink* out) : out_(out) {}
  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  // Passes on the definitions no sample used, then OnEnd.
  void OnEnd() override;

 private:
  // Definitions not yet passed on, in a vector by position (a node-based map by id cost a fifth
  // of prof-merge --pprof's last phase): a record taken leaves its moved-from shell, and once
  // none waits the vector starts again, so it holds about as many as wait at once. Repeated
  // ids keep their first definition, as ids taken before do.
  template <typename T>
  struct Pending {
    std::vector<T> records;
    IdMap position;               // input id -> index in records, of those defined since then
    size_t waiting = 0;           // records not taken
    std::vector<uint64_t> order;  // input ids in declaration order
    IdMap written;                // input id -> output id

    void Define(T record);  // a repeated id keeps its first definition
    bool Waits(uint64_t id) const { return position.Contains(id) && !written.Contains(id); }
  };

  // Takes record `id` out of `pending` into *record with its output id; false (and only the
  // output id set) when it was taken before.
  template <typename T>
  bool Take(Pending<T>* pending, uint64_t id, const char* kind, T* record);
  uint64_t PassMapping(uint64_t id);
  uint64_t PassFunction(uint64_t id);
  uint64_t PassLocation(uint64_t id);
  uint64_t PassStack(uint64_t id);
  // Fills out_stack_'s ids with the output ids of `location_ids`, passing on the ones not
  // passed yet.
  void RenumberLocations(const std::vector<uint64_t>& location_ids);
  bool StackPending(uint64_t id) const {
    return (last_stack_pending_ && last_stack_.id == id) || stacks_.Waits(id);
  }

  ProfileSink* out_;
  IdMap source_ids_;
  Pending<Mapping> mappings_;
  Pending<Function> functions_;
  Pending<Location> locations_;
  Pending<Stack> stacks_;
  // The most recently defined stack, when not yet passed on, is kept here rather than in
  // stacks_: readers define a stack just before the first sample that uses it, so most
  // stacks never take a map node. Its vector's capacity is reused from stack to stack.
  Stack last_stack_;
  bool last_stack_pending_ = false;
  // What is passed on, reused from record to record.
  Stack out_stack_;
  Sample out_sample_;
  LentLabels labels_;  // out_sample_'s
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_CANONICAL_ORDER_H_
