// Content-addressed definitions for producers: converters (perf2prof, rprof2prof, pprof2prof)
// and prof-merge hand in a function, location, mapping or stack by content and get its id; the
// first time a content is seen it gets the next id and is sent to the sink, so every definition
// is emitted once, just before its first use. Memory grows with distinct definitions only.
#ifndef PROFTOOLS_COMMON_MODEL_INTERNER_H_
#define PROFTOOLS_COMMON_MODEL_INTERNER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/model/model.h"
#include "common/model/sink.h"
#include "common/model/stack_table.h"

namespace proftools {

class Interner {
 public:
  explicit Interner(ProfileSink* sink) : sink_(sink) {}

  // Each returns the id of a definition with the given content (the `id` member of the argument
  // is ignored). References inside (a location's mapping and functions, a stack's locations)
  // must be ids this interner returned.
  uint64_t Mapping(const proftools::Mapping& mapping);
  uint64_t Function(const proftools::Function& function);
  uint64_t Location(const proftools::Location& location);
  // Location in two steps, for a caller with several locations at hand (prof-merge reads them
  // in runs): PrepareLocation keeps the location and its key, and starts fetching the key's
  // slot; InternPrepared(prepared), a few locations later, interns it with the slot in cache.
  struct PreparedLocation {
    proftools::Location location;
    StackTable::Key key;
  };
  void PrepareLocation(const proftools::Location& location, PreparedLocation* prepared);
  uint64_t InternPrepared(const PreparedLocation& prepared);
  uint64_t Stack(const std::vector<uint64_t>& location_ids);
  // Stack in two steps, as locations: the caller fills `location_ids`, PrepareStack hashes
  // them and starts fetching their slot, InternPrepared(prepared) interns them a few records
  // later (prof-merge keeps a stack's sample waiting with it, so that the misses overlap).
  struct PreparedStack {
    std::vector<uint64_t> location_ids;
    StackTable::Key key;
  };
  void PrepareStack(PreparedStack* prepared) const {
    stacks_.Prepare(prepared->location_ids, &prepared->key);
  }
  uint64_t InternPrepared(const PreparedStack& prepared);
  // A stack the caller knows this interner has not been given (CallGraph::Emit, which tells
  // the stacks of its tree apart itself): the next id, sent to the sink, without hashing or
  // keeping its frames (a call graph's stacks hold millions). An interner's stacks are all
  // interned by content or all new: a Stack after a NewStack, or the reverse, throws
  // std::logic_error (a content could then get a second id).
  uint64_t NewStack(const std::vector<uint64_t>& location_ids);
  // The same for frames the caller lends: they go to the sink as they are (no copy of each
  // frame) and come back unchanged.
  uint64_t NewStack(std::vector<uint64_t>* location_ids);
  // A function or location the caller knows this interner has not been given (CallGraph::Emit,
  // whose functions differ in content already): the next id, sent to the sink, neither hashed
  // nor kept (a hundred thousand Python functions and their locations were a lookup each in
  // tables of their own). As with stacks, a kind is all interned by content or all new.
  uint64_t NewFunction(const proftools::Function& function);
  uint64_t NewLocation(const proftools::Location& location);

  // A point to go back to. Rollback forgets every definition interned after `mark` (their ids
  // are handed out again); the sink is not told, so a caller that rolls back also drops what it
  // kept of them. prof-merge --skip-bad uses it to take back a bad input's definitions.
  struct Mark {
    size_t mappings = 0, functions = 0, locations = 0, stacks = 0;
  };
  Mark GetMark() const {
    return {mappings_.size(), function_count(), location_count(), stack_count()};
  }
  void Rollback(const Mark& mark);

  // Bounds the frames of the distinct stacks interned, in all, to `max_frames` (0: no bound):
  // past it Stack throws a ProfError naming the input `name`. For the formats whose stacks are
  // implied by a tree or by nesting (parent-linked nodes, evented and B/E profiles, call graphs):
  // there n nodes make stacks of up to n(n + 1) / 2 frames, which every stack kept whole (as
  // prof text and pprof keep them) would hold. The readers give --max-input-size / 32.
  void LimitFrames(uint64_t max_frames, std::string name) {
    max_frames_ = max_frames;
    limit_name_ = std::move(name);
  }

  size_t function_count() const { return functions_.size() + new_functions_; }
  size_t location_count() const { return locations_.size() + new_locations_; }
  size_t stack_count() const { return stacks_.size() + new_stacks_; }
  // The location ids of stack `id`, varint-encoded one after the other (as the sink got them);
  // not for the stacks of NewStack.
  std::string_view EncodedStack(uint64_t id) const { return stacks_.Encoded(id); }

 private:
  // A location's key (its content as integers), its slot fetched; the location interned by it,
  // sent to the sink when new.
  void LocationKey(const proftools::Location& location, StackTable::Key* key);
  uint64_t InternLocation(const StackTable::Key& key, const proftools::Location& location);

  struct Hash {
    size_t operator()(const proftools::Mapping& m) const;
  };
  // Equality of content: ids are ignored.
  struct SameContent {
    bool operator()(const proftools::Mapping& a, const proftools::Mapping& b) const;
  };

  // A new stack of `frames` frames: counts them against LimitFrames.
  void CountFrames(size_t frames);

  ProfileSink* sink_;
  uint64_t max_frames_ = 0, frames_ = 0;
  std::string limit_name_;
  std::unordered_map<proftools::Mapping, uint64_t, Hash, SameContent> mappings_;
  // Functions by content (each string with its length, then the start line) in a table of the
  // stacks' kind: a fleet merge looks up hundreds of thousands, and a node-based map cost a
  // cache miss more each.
  StackTable functions_;
  StackTable::Key function_key_;
  // Locations by content as integer sequences (mapping, address, folded, then function, line
  // and column of each line), in a table of the stacks' kind: one flat slot array and one
  // arena, where a node-based map took three cache misses a lookup (a third of a fleet merge's
  // interning).
  StackTable locations_;
  StackTable::Key location_scratch_;  // Location(location)'s key, reused
  StackTable stacks_;                 // compact: the stacks are most of what a converter holds
  uint64_t new_stacks_ = 0;           // the stacks NewStack gave ids (stacks_ is then empty)
  uint64_t new_functions_ = 0, new_locations_ = 0;  // NewFunction's and NewLocation's
  // Throws std::logic_error when `kind` (its table and its count of new ones) was interned the
  // other way (NewStack's comment).
  static void CheckWay(const char* kind, bool by_content, const StackTable& table,
                       uint64_t made_new);
  void CheckStackWay(bool by_content) const {
    CheckWay("stacks", by_content, stacks_, new_stacks_);
  }
  proftools::Stack new_stack_;  // what OnStack gets, its vector reused (no allocation a stack)
  proftools::Function new_function_;  // what OnFunction gets, its strings reused
  proftools::Location new_location_;  // what OnLocation gets, its lines reused
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_INTERNER_H_
