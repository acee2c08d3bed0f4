#include "common/filter/time_window.h"

#include <algorithm>

namespace proftools {
namespace {

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

int64_t Resolve(const TimeBound& bound, const SourceSpan& span, int64_t open) {
  switch (bound.kind) {
    case TimeBound::Kind::kOpen:
      return open;
    case TimeBound::Kind::kAbsolute:
      return bound.nanos;
    case TimeBound::Kind::kOffset:
      return SaturatingAdd(span.first, bound.nanos);
    case TimeBound::Kind::kPercent: {
      if (open == INT64_MAX && bound.ppb == kPartsPerBillion) return INT64_MAX;
      const __int128 length = static_cast<__int128>(span.end) - span.first;
      return static_cast<int64_t>(span.first + length * bound.ppb / kPartsPerBillion);
    }
  }
  return open;
}

// round(W × part / whole), half up, for 0 <= part <= whole, whole > 0.
int64_t CumulativeShare(int64_t value, __int128 part, __int128 whole) {
  __int128 numerator = static_cast<__int128>(value) * part * 2 + whole;
  __int128 denominator = whole * 2;
  __int128 quotient = numerator / denominator;
  if (numerator % denominator != 0 && numerator < 0) --quotient;
  return static_cast<int64_t>(quotient);
}

}  // namespace

ResolvedWindow ResolveWindow(const TimeSpec& spec, const SourceSpan& span) {
  ResolvedWindow window;
  if (spec.NeedsSourceSpans() && span.empty()) {
    window.from = INT64_MAX;  // empty
    window.to = INT64_MIN;
    return window;
  }
  window.from = Resolve(spec.from, span, INT64_MIN);
  window.to = Resolve(spec.to, span, INT64_MAX);
  if (spec.last_nanos) {
    window.from = std::max(window.from, SaturatingAdd(span.end, -*spec.last_nanos));
  }
  return window;
}

int64_t ShareInWindow(int64_t value, int64_t time, int64_t duration, int64_t from, int64_t to) {
  const __int128 start = time;
  const __int128 cut_start = std::max<__int128>(start, from);
  const __int128 cut_end = std::min<__int128>(start + duration, to);
  if (cut_start >= cut_end) return 0;
  return CumulativeShare(value, cut_end - start, duration) -
         CumulativeShare(value, cut_start - start, duration);
}

bool CutToWindow(const ResolvedWindow& window, Sample* sample) {
  const int64_t time = *sample->time_nanos;
  const int64_t duration = sample->duration_nanos.value_or(0);
  if (duration <= 0) return window.from <= time && time < window.to;
  const __int128 start = time;
  const __int128 end = start + duration;
  const __int128 cut_start = std::max<__int128>(start, window.from);
  const __int128 cut_end = std::min<__int128>(end, window.to);
  if (cut_start >= cut_end) return false;
  if (cut_start == start && cut_end == end) return true;
  for (int64_t& value : sample->values) {
    value = CumulativeShare(value, cut_end - start, duration) -
            CumulativeShare(value, cut_start - start, duration);
  }
  sample->time_nanos = static_cast<int64_t>(cut_start);
  sample->duration_nanos = static_cast<int64_t>(cut_end - cut_start);
  return true;
}

}  // namespace proftools
