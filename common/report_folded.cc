#include <map>

#include "common/reports.h"

namespace proftools {

std::string EscapeFoldedFrame(std::string_view name) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\\':
        out += "\\\\";
        continue;
      case ';':
        out += "\\x3b";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

std::string DisplayFrameName(std::string_view name) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
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
