#include "common/chrome/trace_spans.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace proftools {

std::vector<ValueType> SpanValueTypes() {
  return {{"events", "count"}, {"wall", "nanoseconds"}};
}

void ThreadSpans::Begin(int64_t ts_ns, std::string name, uint64_t byte) {
  marks_.push_back(Mark{ts_ns, true, std::move(name), byte});
}

void ThreadSpans::End(int64_t ts_ns, std::string name, uint64_t byte) {
  marks_.push_back(Mark{ts_ns, false, std::move(name), byte});
}

void ThreadSpans::Complete(int64_t ts_ns, int64_t dur_ns, std::string name, uint64_t byte,
                           std::unique_ptr<SpanValues> values) {
  has_values_ = has_values_ || values != nullptr;
  spans_.push_back(Span{ts_ns, dur_ns, std::move(name), byte, std::move(values)});
}

void ThreadSpans::Convert(Interner* interner, uint64_t source_id, const std::vector<Label>& labels,
                          ProfileSink* sink, Unmatched* unmatched,
                          const std::map<std::string, size_t>* types) {
  // The thread's last time: where a B never closed ends. (Complete's ts + dur is checked by
  // the reader to fit.)
  int64_t last = 0;
  for (const Mark& mark : marks_) last = std::max(last, mark.ts);
  for (const Span& span : spans_) last = std::max(last, span.ts + span.dur);

  // B and E paired in time order; at one instant the ends first, but for a B and an E of one
  // name (a span of no length), which go B first; otherwise as the file gives them.
  std::stable_sort(marks_.begin(), marks_.end(),
                   [](const Mark& a, const Mark& b) { return a.ts < b.ts; });
  std::vector<const Mark*> ordered;
  ordered.reserve(marks_.size());
  std::unordered_set<std::string_view> ends;
  for (size_t first = 0; first < marks_.size();) {
    size_t end = first;
    while (end < marks_.size() && marks_[end].ts == marks_[first].ts) ++end;
    // (The ends' names of the instant, in a set: an instant of many events stays linear.)
    ends.clear();
    for (size_t i = first; i < end; ++i) {
      if (!marks_[i].begin) ends.insert(marks_[i].name);
    }
    const auto ends_named = [&](const std::string& name) { return ends.count(name) != 0; };
    for (size_t i = first; i < end; ++i) {  // begins of no length
      if (marks_[i].begin && ends_named(marks_[i].name)) ordered.push_back(&marks_[i]);
    }
    for (size_t i = first; i < end; ++i) {
      if (!marks_[i].begin) ordered.push_back(&marks_[i]);
    }
    for (size_t i = first; i < end; ++i) {
      if (marks_[i].begin && !ends_named(marks_[i].name)) ordered.push_back(&marks_[i]);
    }
    first = end;
  }
  std::vector<const Mark*> open;
  for (const Mark* mark : ordered) {
    if (mark->begin) {
      open.push_back(mark);
    } else if (open.empty()) {
      if (unmatched->ends++ == 0) unmatched->first_end_byte = mark->byte;
    } else {
      const Mark& begin = *open.back();
      if (!mark->name.empty() && mark->name != begin.name && unmatched->renamed++ == 0) {
        unmatched->first_renamed_byte = mark->byte;
      }
      spans_.push_back(Span{begin.ts, mark->ts - begin.ts, begin.name, begin.byte, nullptr});
      open.pop_back();
    }
  }
  for (const Mark* mark : open) {
    if (unmatched->begins++ == 0) unmatched->first_begin_byte = mark->byte;
    spans_.push_back(Span{mark->ts, last - mark->ts, mark->name, mark->byte, nullptr});
  }

  // Nesting: spans by start, the longer first at equal starts; a span that starts inside the
  // one open before it is its child (one of no length at its very end too), cut at its end if
  // it runs past it, and takes its duration out of that one's self time.
  std::stable_sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
  });
  std::vector<size_t> nest;         // spans open around the current one, outermost first
  std::vector<uint64_t> locations;  // their locations, the same order
  std::vector<uint64_t> leaf_first;
  for (size_t i = 0; i < spans_.size(); ++i) {
    Span& span = spans_[i];
    while (!nest.empty()) {
      const Span& around = spans_[nest.back()];
      const int64_t around_end = around.ts + around.dur;
      if (around_end > span.ts || (around_end == span.ts && span.dur == 0)) break;
      nest.pop_back();
      locations.pop_back();
    }
    if (!nest.empty()) {
      Span& around = spans_[nest.back()];
      const int64_t around_end = around.ts + around.dur;
      if (span.ts + span.dur > around_end) {
        if (unmatched->clipped++ == 0) unmatched->first_clipped_byte = span.byte;
        span.dur = around_end - span.ts;
      }
      around.self -= span.dur;
    }
    span.self += span.dur;
    Function function;
    function.name = span.name.empty() ? "(no name)" : span.name;  // names may not be empty
    Location location;
    location.lines.push_back(Line{interner->Function(function), 0, 0});
    nest.push_back(i);
    locations.push_back(interner->Location(location));
    if (types == nullptr || span.values != nullptr) {  // (the frames around a value: no sample)
      leaf_first.assign(locations.rbegin(), locations.rend());
      span.stack = interner->Stack(leaf_first);
    }
  }
  Sample sample;
  sample.source_id = source_id;
  sample.labels = labels;
  if (types != nullptr) {
    for (const Span& span : spans_) {
      if (span.values == nullptr) continue;
      sample.stack_id = span.stack;
      sample.time_nanos = span.values->time_ns ? *span.values->time_ns : span.ts;
      sample.duration_nanos = span.dur;
      sample.values.assign(types->size(), 0);
      for (const auto& value : span.values->values) {
        const auto type = types->find(value.first);
        if (type != types->end()) sample.values[type->second] = value.second;
      }
      sample.labels = labels;
      sample.labels.insert(sample.labels.end(), span.values->labels.begin(),
                           span.values->labels.end());
      sink->OnSample(sample);
    }
    return;
  }
  for (const Span& span : spans_) {
    sample.stack_id = span.stack;
    sample.time_nanos = span.ts;
    sample.duration_nanos = span.dur;
    sample.values = {1, std::max<int64_t>(span.self, 0)};
    sink->OnSample(sample);
  }
}

}  // namespace proftools
