// --sequences: background 004's "count occurrences of every observed subsequence of frames",
// listed by value, each with its "cost per frame": the value of every prefix.
#include <cmath>
#include <cstdio>

#include "common/report/reports.h"
#include "common/report/sequence/sequence_counts.h"
#include "common/report/sequence/sequence_stacks.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

// The least value that is at least `min_percent` of `total`.
int64_t MinValue(int64_t total, double min_percent) {
  return static_cast<int64_t>(std::ceil(static_cast<double>(total) * min_percent / 100.0));
}

}  // namespace

void WriteSequencesReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const ValueType& type = totals.header().types[v];
  const int64_t total = totals.total_values()[v];
  const SequenceOptions& o = options.sequences;
  const SequenceStacks stacks(totals, v, options.granularity);
  SequenceLimits limits;
  limits.max_length = o.max_length;
  limits.min_value = MinValue(total, options.min_percent);
  limits.by_self = o.by_self;
  const SequenceCounts counts(stacks, limits);
  size_t hidden = 0;
  std::vector<uint32_t> listed = counts.Listed(stacks, &hidden);
  const size_t qualifying = listed.size();
  if (options.node_count != 0 && listed.size() > options.node_count) {
    listed.resize(options.node_count);
  }

  auto fmt = [&](int64_t value) { return FormatValue(value, type.unit, options.raw_values); };
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g%%", options.min_percent);
  std::string text =
      ReportHeader(totals, options,
                   "Showing " + std::to_string(listed.size()) +
                       (listed.size() == 1 ? " sequence" : " sequences") + " of 1 to " +
                       std::to_string(o.max_length) + " frames with " +
                       (o.by_self ? "a self" : "a cumulative") + " value of at least " + percent +
                       " of " + fmt(total) + " total" + SampleCount(totals, options.value_index));
  if (listed.size() < qualifying) {
    text += "Showing top " + std::to_string(listed.size()) + " sequences out of " +
            std::to_string(qualifying) + "\n";
  }
  if (hidden > 0) {
    text += std::to_string(hidden) + (hidden == 1 ? " sequence is" : " sequences are") +
            " left out: each always comes with a listed one of the same value " +
            (o.by_self ? "one frame longer\n"
                       : "(one frame longer, or along an unbranching path, the window one frame "
                         "earlier)\n");
  }
  text += o.by_self
              ? "Each block is a sequence, root first, then [self]: the value of samples whose "
                "stack ends with it; each frame's line gives the value of the sequence up to "
                "that frame\n"
              : "Each block is a sequence, root first; each frame's line gives the value of the "
                "sequence up to that frame, the last line the sequence's own\n";
  text +=
      "The last frame's line ends with the sequence as --peek-seq takes it (and --focus-seq "
      "--literal, by functions)\n";
  constexpr const char* kSeparator =
      "-----------+--------+------------------------------------------------\n";
  char line[64];
  for (uint32_t id : listed) {
    text += kSeparator;
    // The prefixes of `id`, root first: each is counted (a listed sequence's parts all reach
    // the threshold).
    std::vector<uint32_t> prefixes;
    for (uint32_t p = id; p != CountedSequence::kNone; p = counts.sequences()[p].prefix) {
      prefixes.push_back(p);
    }
    for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
      const CountedSequence& prefix = counts.sequences()[*it];
      std::snprintf(line, sizeof line, "%10s %8s   ", fmt(prefix.cum).c_str(),
                    FormatPercent(prefix.cum, total).c_str());
      text += line;
      const std::string name = DisplayFrameName(stacks.Name(prefix.last));
      text += name;
      if (*it == id) {
        // The sequence in the form --peek-seq and --focus-seq --literal take (names escaped as
        // folded, joined by ';'): a name copied from the lines above may not paste back.
        const std::string pastable = DisplayFrameName(SequenceText(stacks, counts.Frames(id)));
        if (pastable != name) text += "   " + pastable;
      }
      text += '\n';
    }
    if (o.by_self) {
      const int64_t self = counts.sequences()[id].self;
      std::snprintf(line, sizeof line, "%10s %8s   ", fmt(self).c_str(),
                    FormatPercent(self, total).c_str());
      text += line;
      text += "[self]\n";
    }
    WriteWhenLarge(&text, out);
  }
  if (!listed.empty()) text += kSeparator;
  out->Write(text);
}

}  // namespace proftools
