// --peek RE and --peek-seq SEQ: background 004's graph node, one block per peeked frame or
// sequence. Rows name the sequence one frame longer, to give to --peek-seq: the seed's links.
#include <re2/re2.h>

#include <algorithm>
#include <cstdio>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/report/reports.h"
#include "common/report/sequence/sequence_peek.h"
#include "common/report/value_format.h"

namespace proftools {
namespace {

constexpr const char* kPeekSeparator =
    "-----------+--------+------------------------------------------------\n";
constexpr size_t kWidestNameColumn = 40;

class PeekWriter {
 public:
  PeekWriter(const SequenceStacks& stacks, const ValueType& type, int64_t total, bool raw)
      : stacks_(stacks), type_(type), total_(total), raw_(raw) {}

  void Write(const Peek& peek, std::string* text) const {
    *text += kPeekSeparator;
    *text += DisplayFrameName(SequenceText(stacks_, peek.frames));
    if (peek.recursive) *text += "   (recursive)";
    *text += '\n';
    Row(peek.cum, total_, "cum", "", text);
    Row(peek.self, total_, "self", "", text);
    size_t width = 0;
    for (const auto* edges : {&peek.callers, &peek.callees}) {
      for (const PeekEdge& edge : *edges) width = std::max(width, EdgeName(edge, true).size());
    }
    width = std::min(width, kWidestNameColumn);
    *text += "  callers (% of cum):\n";
    for (const PeekEdge& edge : peek.callers) {
      std::vector<uint32_t> longer = peek.frames;
      longer.insert(longer.begin(), edge.frame);
      Row(edge.value, peek.cum, Padded(EdgeName(edge, true), width),
          edge.frame == PeekEdge::kEnd ? "" : SequenceText(stacks_, longer), text);
    }
    *text += "  callees (% of cum):\n";
    for (const PeekEdge& edge : peek.callees) {
      std::vector<uint32_t> longer = peek.frames;
      longer.push_back(edge.frame);
      Row(edge.value, peek.cum, Padded(EdgeName(edge, false), width),
          edge.frame == PeekEdge::kEnd ? "" : SequenceText(stacks_, longer), text);
    }
  }

 private:
  std::string EdgeName(const PeekEdge& edge, bool caller) const {
    if (edge.frame == PeekEdge::kEnd) return caller ? "[root]" : "[self]";
    return DisplayFrameName(stacks_.Name(edge.frame));
  }

  static std::string Padded(std::string name, size_t width) {
    if (name.size() < width) name.resize(width, ' ');
    return name;
  }

  void Row(int64_t value, int64_t of, const std::string& name, const std::string& next,
           std::string* text) const {
    char line[64];
    std::snprintf(line, sizeof line, "%10s %8s   ", FormatValue(value, type_.unit, raw_).c_str(),
                  FormatPercent(value, of).c_str());
    *text += line;
    *text += name;
    if (!next.empty()) *text += "   " + DisplayFrameName(next);
    while (!text->empty() && text->back() == ' ') text->pop_back();
    *text += '\n';
  }

  const SequenceStacks& stacks_;
  const ValueType& type_;
  int64_t total_;
  bool raw_;
};

}  // namespace

void CheckPeekRegex(const std::string& regex) {
  RE2 compiled(regex, RE2::Quiet);
  if (!compiled.ok()) throw UsageError("--peek " + Printable(regex) + ": " + compiled.error());
}

void WritePeekReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  const int64_t total = totals.total_values()[v];
  const SequenceOptions& o = options.sequences;
  const SequenceStacks stacks(totals, v, options.granularity);
  std::vector<Peek> peeks;
  std::string what;
  if (!o.peek_sequences.empty()) {
    // A block for each sequence that samples hold, in the order given (a sequence no sample
    // holds as a run has none).
    for (const std::string& sequence : o.peek_sequences) {
      std::vector<uint32_t> frames;
      if (!ParseSequence(stacks, sequence, &frames)) {
        throw UsageError("--peek-seq " + Printable(sequence) +
                         ": a frame of it is in no sample (names as --sequences and --peek "
                         "write them, joined by ;)");
      }
      peeks.push_back(PeekSequence(stacks, frames));
      if (peeks.back().cum == 0) peeks.pop_back();
    }
    what = o.peek_sequences.size() == 1 ? "the sequence " + DisplayFrameName(o.peek_sequences[0])
                                        : std::to_string(o.peek_sequences.size()) + " sequences";
  } else {
    CheckPeekRegex(o.peek_regex);
    RE2 regex(o.peek_regex, RE2::Quiet);
    std::vector<bool> matches(stacks.frame_count());
    for (uint32_t frame = 0; frame < stacks.frame_count(); ++frame) {
      matches[frame] = RE2::PartialMatch(stacks.Name(frame), regex);
    }
    peeks = PeekFrames(stacks, matches);
    // --min-percent: frames worth less than P% of the total have no block.
    const uint64_t cutoff = TrimCutoff(total, options.min_percent);
    peeks.erase(std::remove_if(peeks.begin(), peeks.end(),
                               [&](const Peek& p) { return Magnitude(p.cum) < cutoff; }),
                peeks.end());
    what = "frames matching " + DisplayFrameName(o.peek_regex);
  }

  const ValueType& type = totals.header().types[v];
  std::string text = ReportHeader(totals, options,
                                  "Peek of " + what + ": " + std::to_string(peeks.size()) +
                                      (peeks.size() == 1 ? " block" : " blocks") + ", of " +
                                      FormatValue(total, type.unit, options.raw_values) + " total" +
                                      SampleCount(totals, options.value_index));
  text +=
      "Each block: the value of samples holding it (cum) and ending with it (self), % of the "
      "total; then the frames before it (callers) and after it (callees), % of its cum, each "
      "with the longer sequence to give to --peek-seq\n";
  PeekWriter writer(stacks, type, total, options.raw_values);
  for (const Peek& peek : peeks) {
    writer.Write(peek, &text);
    WriteWhenLarge(&text, out);
  }
  if (!peeks.empty()) text += kPeekSeparator;
  out->Write(text);
}

}  // namespace proftools
