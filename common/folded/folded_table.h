// What the folded reader keeps between lines: frames' functions, locations and stacks by
// content under local ids, the label sets of thread roots, and one entry per distinct
// (source, labels, stack) with its summed values. Finish-time emission puts the entries in an
// order of their content (so the order of the input's lines does not matter) and interns
// definitions through an Interner as the samples need them.
#ifndef PROFTOOLS_COMMON_FOLDED_FOLDED_TABLE_H_
#define PROFTOOLS_COMMON_FOLDED_FOLDED_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/model/frame_kind.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

class FoldedTable {
 public:
  struct LocalLine {
    uint32_t function = 0;
    int64_t line = 0;
  };

  explicit FoldedTable(int value_count) : value_count_(value_count) {}
  int value_count() const { return value_count_; }

  // Local ids (0-based) of content; the same content gives the same id.
  uint32_t Function(std::string_view name, std::string_view file);
  // `lines`: innermost first.
  uint32_t Location(CodeKind kind, const std::vector<LocalLine>& lines);
  // `locations`: leaf first.
  uint32_t Stack(const std::vector<uint32_t>& locations);
  uint32_t Labels(const std::vector<Label>& labels);
  // The entry of (source index, labels id, stack id).
  uint32_t Entry(uint32_t source, uint32_t labels, uint32_t stack);

  // Adds a value `mantissa` / 10^`decimals` to value `index` of `entry`. Sums are kept exact in
  // units of 10^-decimal_places(); more places than seen so far rescale every sum once.
  void AddValue(uint32_t entry, int index, int64_t mantissa, int decimals);
  int decimal_places() const { return scale_; }
  bool saturated() const { return saturated_; }

  // How sums become the values emitted: times `multiply`, then divided by `divide` rounding
  // half up (one of them is 1).
  struct Conversion {
    int64_t multiply = 1;
    int64_t divide = 1;
  };
  // Emits the definitions and one sample per entry (source ids are index + 1) into `sink`, whose
  // OnHeader the caller has already called; then OnEnd.
  void Emit(const Conversion& conversion, ProfileSink* sink);

 private:
  struct LocalLocation {
    CodeKind kind;
    std::vector<LocalLine> lines;  // innermost first
  };
  struct EntryKey {
    uint32_t source, labels, stack;
    bool operator==(const EntryKey& o) const {
      return source == o.source && labels == o.labels && stack == o.stack;
    }
  };
  struct EntryKeyHash {
    size_t operator()(const EntryKey& k) const {
      return (uint64_t{k.stack} * 0x9e3779b97f4a7c15ull) ^ (uint64_t{k.labels} << 20) ^ k.source;
    }
  };
  // The order of content: ranks of functions, locations and label sets.
  void RankContent(std::vector<uint32_t>* location_rank, std::vector<uint32_t>* labels_rank) const;

  int value_count_;
  int scale_ = 0;
  bool saturated_ = false;
  std::vector<std::pair<std::string, std::string>> functions_;  // name, file
  std::unordered_map<std::string, uint32_t> function_ids_;
  std::vector<LocalLocation> locations_;
  std::unordered_map<std::string, uint32_t> location_ids_;
  std::vector<std::vector<uint32_t>> stacks_;
  std::unordered_map<std::string, uint32_t> stack_ids_;
  std::vector<std::vector<Label>> labels_;
  std::unordered_map<std::string, uint32_t> labels_ids_;
  std::vector<EntryKey> entries_;
  std::unordered_map<EntryKey, uint32_t, EntryKeyHash> entry_ids_;
  std::vector<int64_t> sums_;  // value_count_ per entry
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FOLDED_FOLDED_TABLE_H_
