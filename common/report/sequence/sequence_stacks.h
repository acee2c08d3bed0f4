// The stacks the sequence views (--sequences, --peek, --peek-seq) read: each distinct stack as
// frame-name ids, root first, after collapsing directly repeated cycles (background 004's
// canonical traces: `a b c b c d` is read as `a b c d`), with its total; stacks that become
// equal are one. Memory grows with distinct stacks times their depth, in 4-byte ids.
#ifndef PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_STACKS_H_
#define PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_STACKS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/base/string_ids.h"
#include "common/report/frames.h"
#include "common/report/stack_totals.h"

namespace proftools {

class SequenceStacks {
 public:
  // The stacks of `totals` with their value of type `value_index`, frames named at
  // `granularity`. Stacks whose value is 0 and samples without frames are left out (they can
  // add to no sequence), as pprof leaves out samples of value 0.
  SequenceStacks(const StackTotals& totals, int value_index, Granularity granularity);

  struct Stack {
    std::vector<uint32_t> frames;  // frame ids, root first, no cycle directly repeated
    int64_t value = 0;
    // At least |value|, never negative: |value| summed over the entries that became this stack,
    // and of a difference (--diff-base) the magnitudes of the profile's and the base's values.
    int64_t weight = 0;
  };
  const std::vector<Stack>& stacks() const { return stacks_; }
  size_t frame_count() const { return appears_twice_.size(); }
  const std::string& Name(uint32_t frame) const { return names_.Text(frame); }
  // Its name escaped as in folded stacks (`;` as `\x3b`): how sequences write it.
  const std::string& Escaped(uint32_t frame) const { return escaped_[frame]; }
  // The id of the frame whose name, escaped as in folded stacks (`;` as `\x3b`), is `escaped`.
  bool FindEscaped(std::string_view escaped, uint32_t* frame) const;
  // Whether some sample holds `frame` more than once before collapsing (recursion).
  bool AppearsTwice(uint32_t frame) const { return appears_twice_[frame]; }

 private:
  StringIds names_;
  std::vector<bool> appears_twice_;
  std::vector<std::string> escaped_;                           // per frame id
  std::unordered_map<std::string_view, uint32_t> by_escaped_;  // views of escaped_
  std::vector<Stack> stacks_;
};

// `a;b;c` for a sequence of frames: names escaped as in folded stacks, so that the text can be
// given back to --peek-seq.
std::string SequenceText(const SequenceStacks& stacks, const std::vector<uint32_t>& frames);

// Parses --peek-seq's `a;b;c` into frame ids; false when a frame is in no stack.
bool ParseSequence(const SequenceStacks& stacks, std::string_view text,
                   std::vector<uint32_t>* frames);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_SEQUENCE_SEQUENCE_STACKS_H_
