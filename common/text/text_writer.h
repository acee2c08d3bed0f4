// The canonical writer of the prof text format (formats/prof-text.md §7).
//
// It is a sink: records go in, canonical text comes out. Definitions are held back until the
// first sample that uses them, ids are renumbered in order of appearance, and definitions no
// sample uses are written at the end. Memory is bounded by definitions not yet written plus the
// id maps; samples are written as they arrive.
#ifndef PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_
#define PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/id_table.h"
#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

class CanonicalWriter : public ProfileSink {
 public:
  explicit CanonicalWriter(ByteSink* out);
  // For tests: location ids from `cached_ids` on are converted to decimal in each stack line
  // (the default, kCachedIds, is reached only by profiles of ten million locations).
  CanonicalWriter(ByteSink* out, uint64_t cached_ids);
  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  // Writes the unused definitions and flushes everything to the ByteSink.
  void OnEnd() override;

 private:
  template <typename T>
  struct Pending {
    std::unordered_map<uint64_t, T> records;  // not yet written, by input id
    std::vector<uint64_t> order;              // input ids in declaration order
    IdMap written;                            // input id -> output id
  };

  uint64_t WriteMapping(uint64_t id);
  uint64_t WriteFunction(uint64_t id);
  uint64_t WriteLocation(uint64_t id);
  uint64_t WriteStack(uint64_t id);
  // Fills scratch_ids_ with the output ids of `location_ids`, writing the ones not yet written.
  void RenumberLocations(const std::vector<uint64_t>& location_ids);
  bool StackPending(uint64_t id) const {
    return (last_stack_pending_ && last_stack_.id == id) || stacks_.records.count(id) != 0;
  }
  void MaybeFlush();

  ByteSink* out_;
  std::string buffer_;
  IdMap source_ids_;
  Pending<Mapping> mappings_;
  Pending<Function> functions_;
  Pending<Location> locations_;
  Pending<Stack> stacks_;
  // The most recently defined stack, when not yet written, is kept here rather than in
  // stacks_.records: readers define a stack just before the first sample that uses it, so most
  // stacks never take a map node. Its vector's capacity is reused from stack to stack.
  Stack last_stack_;
  bool last_stack_pending_ = false;
  std::vector<uint64_t> scratch_ids_;
  // For each output location id below cached_ids_, " ID" as it appears in stack lines, in the
  // first bytes of 8 (padding after), and its length: a stack line is then one 8-byte copy
  // per location instead of a decimal conversion (they are most of a large profile's bytes).
  static constexpr uint64_t kCachedIds = 10000000;  // " " and 7 digits fill the 8 bytes
  uint64_t cached_ids_ = kCachedIds;
  struct LocationText {
    std::array<char, 8> bytes;
    uint8_t size;
  };
  std::vector<LocationText> location_text_;
};

// The canonical text of a whole profile.
std::string ToCanonicalText(const Profile& profile);

// The column comment block the writer puts after the header, naming `types` in the sample line.
std::string ColumnComments(const std::vector<ValueType>& types);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_
