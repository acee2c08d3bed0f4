// The Trace Event Format's duration events (`B`/`E` pairs and `X` complete events) of one
// thread as samples: each span a sample with TIME (its start) and DURATION (its length), its
// stack the names of the spans open around it (leaf first), its values a count and its self
// time (its duration minus its children's), so that totals add up as the trace's flame chart
// shows them. Where the format's rules are silent, as Catapult and speedscope apply them:
// - B and E pair in time order; at one instant ends come before begins (a B and an E of the
//   same name there are a span of no length: the B first), as speedscope orders them;
// - `E` closes the innermost `B` open on its thread, whatever its name, as Chrome's viewer
//   does (counted when its name is another); an `E` with nothing open is ignored;
// - a `B` never closed ends at its thread's last time in the trace (its children stay its
//   children);
// - a span that runs past the end of the span around it (overlapping `X` events) is cut at
//   that end: a thread's time is counted once, never more than its span.
// Each of these is counted for one warning. Instant events are spans of no duration.
#ifndef PROFTOOLS_COMMON_CHROME_TRACE_SPANS_H_
#define PROFTOOLS_COMMON_CHROME_TRACE_SPANS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/model/interner.h"
#include "common/model/model.h"
#include "common/model/sink.h"

namespace proftools {

// The value types of duration events; wall is the default.
std::vector<ValueType> SpanValueTypes();
inline constexpr const char* kSpanDefaultType = "wall";

// What prof2chrome writes in a sample's innermost X event (args): its values by "TYPE/UNIT", its
// labels but those the track shows, and its own time when it was moved (args.time).
struct SpanValues {
  std::vector<std::pair<std::string, int64_t>> values;
  std::vector<Label> labels;
  std::optional<int64_t> time_ns;
};

class ThreadSpans {
 public:
  void Begin(int64_t ts_ns, std::string name, uint64_t byte);
  void End(int64_t ts_ns, std::string name, uint64_t byte);
  void Complete(int64_t ts_ns, int64_t dur_ns, std::string name, uint64_t byte = 0,
                std::unique_ptr<SpanValues> values = nullptr);
  bool has_values() const { return has_values_; }
  bool empty() const { return marks_.empty() && spans_.empty(); }

  struct Unmatched {
    uint64_t ends = 0, begins = 0;  // E without B, B without E
    uint64_t renamed = 0;           // E of another name than the B it closed
    uint64_t clipped = 0;           // spans cut at the end of the span around them
    uint64_t first_end_byte = 0, first_begin_byte = 0, first_renamed_byte = 0;
    uint64_t first_clipped_byte = 0;
  };
  // Emits one sample per span; adds what did not pair up to `unmatched`. With `types` (a trace
  // prof2chrome wrote: "TYPE/UNIT" -> its index among the header's types), only the spans that
  // carry SpanValues are samples, with those values, labels and times: the other spans are the
  // frames around them.
  void Convert(Interner* interner, uint64_t source_id, const std::vector<Label>& labels,
               ProfileSink* sink, Unmatched* unmatched,
               const std::map<std::string, size_t>* types = nullptr);

 private:
  struct Mark {  // a B or an E, paired in time order
    int64_t ts;
    bool begin;
    std::string name;
    uint64_t byte;
  };
  struct Span {
    int64_t ts, dur;
    std::string name;
    uint64_t byte = 0;
    std::unique_ptr<SpanValues> values;
    int64_t self = 0;
    uint64_t stack = 0;
  };
  std::vector<Mark> marks_;
  std::vector<Span> spans_;
  bool has_values_ = false;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_TRACE_SPANS_H_
