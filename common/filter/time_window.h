// --time and --last: which part of each sample falls in a time window, and how much of its
// value that part carries (the proportional rule of "long samples", background 003).
#ifndef PROFTOOLS_COMMON_FILTER_TIME_WINDOW_H_
#define PROFTOOLS_COMMON_FILTER_TIME_WINDOW_H_

#include <cstdint>
#include <optional>

#include "common/filter/filter_spec.h"
#include "common/model/model.h"

namespace proftools {

// The times one source's samples cover: the first TIME and the latest TIME + DURATION.
struct SourceSpan {
  int64_t first = INT64_MAX;
  int64_t end = INT64_MIN;
  bool empty() const { return first > end; }
  void Add(int64_t time, int64_t duration) {
    if (time < first) first = time;
    const int64_t sample_end = duration > INT64_MAX - time ? INT64_MAX : time + duration;
    if (sample_end > end) end = sample_end;
  }
};

// A window resolved for one source: [from, to), INT64_MIN / INT64_MAX for open ends.
struct ResolvedWindow {
  int64_t from = INT64_MIN;
  int64_t to = INT64_MAX;
};

// Resolves `spec` against a source's span (needed when spec.NeedsSourceSpans(); a source with no
// timed sample resolves to an empty window). A `to` of 100% is an open end, so that 0%..100%
// keeps the last sample.
ResolvedWindow ResolveWindow(const TimeSpec& spec, const SourceSpan& span);

// Cuts `sample` (which has a TIME) to `window`. Returns false when no part of it is inside. A
// sample without DURATION (or with DURATION 0) is inside when from <= TIME < to. A sample with a
// DURATION D that overlaps the window gets TIME and DURATION clipped to it, and each value W
// becomes C(end) - C(start) with C(x) = round(W × (x - TIME) / D), rounded half up: the
// cumulative share is rounded, not each part, so adjacent windows add up to W exactly.
bool CutToWindow(const ResolvedWindow& window, Sample* sample);

// The part of `value` that a sample at `time` lasting `duration` (> 0) carries inside
// [from, to), by the rule of CutToWindow: 0 when they do not overlap.
int64_t ShareInWindow(int64_t value, int64_t time, int64_t duration, int64_t from, int64_t to);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_TIME_WINDOW_H_
