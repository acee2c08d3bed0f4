#include <map>

#include "common/reports.h"
#include "common/text_syntax.h"

namespace proftools {

namespace {

// Escapes control bytes and bytes that are not valid UTF-8 as \xHH (LF, CR, HT by name); in
// folded form also `\` and `;`, so that the escaping can be undone and frames split on ';'.
std::string EscapeName(std::string_view name, bool folded) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  size_t i = 0;
  while (i < name.size()) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(name, i);
      if (length > 0) {
        out.append(name.data() + i, length);
        i += length;
        continue;
      }
    }
    ++i;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (folded && c == '\\') {
      out += "\\\\";
    } else if (c < 0x20 || c >= 0x7f || (folded && c == ';')) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

}  // namespace

std::string EscapeFoldedFrame(std::string_view name) {
  return EscapeName(name, true);
}

std::string DisplayFrameName(std::string_view name) {
  return EscapeName(name, false);
}

void WriteFoldedReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  FrameExpander frames(totals.defs(), options.granularity);
  // Root first, frames joined by ';', identical lines summed, sorted bytewise (as
  // stackcollapse-perf.pl sorts). Empty stacks and zero sums have no folded line.
  std::map<std::string, int64_t> folded;
  std::vector<const Frame*> stack_frames;
  std::string line;
  for (const StackTotals::Entry& entry : totals.entries()) {
    stack_frames.clear();
    frames.StackFrames(entry.stack_id, &stack_frames);
    if (stack_frames.empty()) continue;
    line.clear();
    for (auto it = stack_frames.rbegin(); it != stack_frames.rend(); ++it) {
      if (!line.empty()) line.push_back(';');
      line += EscapeFoldedFrame((*it)->name);
    }
    folded[line] += entry.values[v];
  }
  std::string text;
  for (const auto& [stack, value] : folded) {
    if (value == 0) continue;
    text += stack;
    text += ' ';
    text += std::to_string(value);
    text += '\n';
    if (text.size() > (size_t{1} << 20)) {
      out->Write(text);
      text.clear();
    }
  }
  out->Write(text);
}

}  // namespace proftools
