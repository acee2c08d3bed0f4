#include <unordered_map>
#include <vector>

#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/base/utf8.h"
#include "common/report/reports.h"
#include "common/report/text/folded_lines.h"

namespace proftools {

namespace {

// Escapes control bytes and bytes that are not valid UTF-8 as \xHH (LF, CR, HT by name); in
// folded form also `\` and `;`, so that the escaping can be undone and frames split on ';'.
// U+FFFE and U+FFFF, valid UTF-8 but no characters of XML, are escaped byte by byte too: a name
// is shown in the SVG and HTML pages, which an XML parser must read.
std::string EscapeName(std::string_view name, bool folded) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  size_t i = 0;
  while (i < name.size()) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(name, i);
      const bool noncharacter = IsXmlNoncharacterAt(name, i);
      if (length > 0 && !noncharacter) {
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

std::string TypeLine(const ValueType& type) {
  return "Type: " + DisplayFrameName(type.type) + "/" + DisplayFrameName(type.unit) + "\n";
}

void WriteFoldedReport(const StackTotals& totals, const ReportOptions& options, ByteSink* out) {
  const int v = options.value_index;
  FrameExpander frames(totals.defs(), options.granularity);
  // Root first, frames joined by ';', identical lines summed, sorted bytewise (as
  // stackcollapse-perf.pl sorts). Empty stacks and zero sums have no folded line.
  FoldedLines folded;
  // Each location's frames as the folded lines' frame ids, made in the order a walk from the
  // root meets them.
  LocationNumbers frame_ids(LocationNumbers::Order::kOutermostFirst,
                            LocationNumbers::Reads::kNames);
  auto intern = [&](const Frame& frame) { return folded.Intern(EscapeFoldedFrame(frame.name)); };
  std::vector<uint32_t> line;
  for (const StackTotals::Entry& entry : totals.entries()) {
    const Stack* stack = totals.defs().stacks.Find(entry.stack_id);
    if (stack == nullptr) continue;
    line.clear();
    frame_ids.AppendStack(&frames, *stack, LocationNumbers::Walk::kFromTheRoot, intern, &line);
    if (line.empty()) continue;
    if (totals.is_diff()) {
      // Two columns, the base then this profile, as difffolded.pl writes them.
      const int64_t* base_values = totals.base_values(entry);
      const int64_t base = base_values == nullptr ? 0 : base_values[v];
      int64_t value = entry.values[v];
      AddSaturating(&value, base);
      folded.Add(line, base, value);
    } else {
      folded.Add(line, entry.values[v]);
    }
  }
  // --min-percent: lines worth less than P% of the total are left out.
  folded.Write(out, TrimCutoff(totals.total_values()[v], options.min_percent));
}

}  // namespace proftools
