// Folded stack lines (`root;frame;...;leaf VALUE`): summed per distinct line and written in
// bytewise order, as stackcollapse-perf.pl sorts them.
//
// Frame texts are interned once and a line is kept as the sequence of its frames' ids, so memory
// grows with distinct lines times their depth in 4-byte ids, not in copies of the names; and
// sorting compares text only where two lines first differ, never their (long) common prefixes.
#ifndef PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_LINES_H_
#define PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_LINES_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/saturating.h"
#include "common/base/string_ids.h"
#include "common/io/byte_stream.h"

namespace proftools {

class FoldedLines {
 public:
  // The id of a frame's text, which must not contain ';' or a newline (escape or replace them
  // first), so that distinct sequences of frames are distinct lines.
  uint32_t Intern(std::string frame);

  // Adds `value` to the line made of `frames` (ids from Intern), outermost first.
  void Add(const std::vector<uint32_t>& frames, int64_t value);
  // Adds `base` to the line's first column and `value` to its second: the two-column input of
  // FlameGraph's differential graphs (difffolded.pl: `stack BEFORE AFTER`).
  void Add(const std::vector<uint32_t>& frames, int64_t base, int64_t value);

  // Writes every line whose sums are not all 0, sorted bytewise; an empty line is left out. A
  // line has its two columns when any Add gave a base. Lines whose sums are all below
  // `min_magnitude` (in absolute value) are left out too.
  void Write(ByteSink* out, uint64_t min_magnitude = 0) const;

 private:
  // Whether line `a` sorts before line `b` bytewise, comparing text only from the first frame
  // where they differ.
  bool Before(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) const;

  StringIds frames_;
  struct Sums {
    int64_t base = 0;
    int64_t value = 0;
  };
  std::unordered_map<std::vector<uint32_t>, Sums, IdSequenceHash> sums_;
  bool two_columns_ = false;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_LINES_H_
