#include "common/chrome/trace_spans.h"

#include <algorithm>
#include <utility>

namespace proftools {

std::vector<ValueType> SpanValueTypes() {
  return {{"events", "count"}, {"wall", "nanoseconds"}};
}

void ThreadSpans::Begin(int64_t ts_ns, std::string name, uint64_t byte) {
  marks_.push_back(Mark{ts_ns, true, std::move(name), byte});
}

void ThreadSpans::End(int64_t ts_ns, uint64_t byte) {
  marks_.push_back(Mark{ts_ns, false, std::string(), byte});
}

void ThreadSpans::Complete(int64_t ts_ns, int64_t dur_ns, std::string name) {
  spans_.push_back(Span{ts_ns, dur_ns, std::move(name)});
}

void ThreadSpans::Convert(Interner* interner, uint64_t source_id, const std::vector<Label>& labels,
                          ProfileSink* sink, Unmatched* unmatched) {
  // B and E paired in time order (equal times as the file gives them).
  std::stable_sort(marks_.begin(), marks_.end(),
                   [](const Mark& a, const Mark& b) { return a.ts < b.ts; });
  std::vector<const Mark*> open;
  for (const Mark& mark : marks_) {
    if (mark.begin) {
      open.push_back(&mark);
    } else if (open.empty()) {
      if (unmatched->ends++ == 0) unmatched->first_end_byte = mark.byte;
    } else {
      spans_.push_back(Span{open.back()->ts, mark.ts - open.back()->ts, open.back()->name});
      open.pop_back();
    }
  }
  for (const Mark* mark : open) {
    if (unmatched->begins++ == 0) unmatched->first_begin_byte = mark->byte;
  }

  // Nesting: spans by start, the longer first at equal starts; a span inside the one open
  // before it is its child, and takes its duration out of that one's self time.
  std::stable_sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
  });
  std::vector<size_t> nest;         // spans open around the current one, outermost first
  std::vector<uint64_t> locations;  // their locations, the same order
  std::vector<uint64_t> leaf_first;
  for (size_t i = 0; i < spans_.size(); ++i) {
    Span& span = spans_[i];
    const int64_t end = span.ts + span.dur;
    while (!nest.empty() && spans_[nest.back()].ts + spans_[nest.back()].dur < end) {
      nest.pop_back();
      locations.pop_back();
    }
    if (!nest.empty()) spans_[nest.back()].self -= span.dur;
    span.self += span.dur;
    Function function;
    function.name = span.name.empty() ? "(no name)" : span.name;  // names may not be empty
    Location location;
    location.lines.push_back(Line{interner->Function(function), 0, 0});
    nest.push_back(i);
    locations.push_back(interner->Location(location));
    leaf_first.assign(locations.rbegin(), locations.rend());
    span.stack = interner->Stack(leaf_first);
  }
  Sample sample;
  sample.source_id = source_id;
  sample.labels = labels;
  for (const Span& span : spans_) {
    sample.stack_id = span.stack;
    sample.time_nanos = span.ts;
    sample.duration_nanos = span.dur;
    sample.values = {1, std::max<int64_t>(span.self, 0)};
    sink->OnSample(sample);
  }
}

}  // namespace proftools
