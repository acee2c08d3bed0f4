// kFoldedReader: the folded codec as the registry (common/load/) sees it.
#include <string>
#include <string_view>

#include "common/folded/folded_encoding.h"
#include "common/folded/folded_reader.h"
#include "common/folded/folded_syntax.h"
#include "common/io/input.h"

namespace proftools {
namespace {

// The sniffer reads at most this many lines: enough to see a shape, few enough to stay cheap.
constexpr int kLinesToJudge = 8;

void ReadFolded(Input& input, const ReadContext& context, ProfileSink* sink) {
  FoldedOptions options;
  options.allow_empty = context.allow_empty;
  FoldedReader reader(options, context.warnings);
  reader.Add(input, context.uri);
  reader.Finish(sink);
}

bool HasControlBytes(std::string_view line) {
  for (char c : line) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t') return true;
  }
  return false;
}

}  // namespace

int SniffFolded(std::string_view raw_head, bool text) {
  const bool utf16 = raw_head.substr(0, 2) == "\xff\xfe" || raw_head.substr(0, 2) == "\xfe\xff";
  if (!text && !utf16) return kNotMine;
  const std::string decoded = DecodeHead(raw_head);
  std::string_view head = decoded;
  if (head.substr(0, 9) == "proftext ") return kNotMine;
  // Only a head shorter than the window is the whole input: otherwise its last line may be cut.
  const bool whole = raw_head.size() < kSniffBytes;
  int judged = 0, unparsed = 0;
  bool cut_line_plausible = false;
  while (!head.empty() && judged < kLinesToJudge && unparsed < kLinesToJudge) {
    const size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    const bool cut = end == std::string_view::npos && !whole;
    head = end == std::string_view::npos ? std::string_view() : head.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (HasControlBytes(line)) return kNotMine;
    if (cut) {
      // Not held against it, nor for it unless nothing else was seen: a frame list so far.
      cut_line_plausible = line.find(';') != std::string_view::npos;
      break;
    }
    FoldedLine parts;
    std::string why;
    if (!SplitFoldedLine(line, 0, &parts, &why)) {
      // A comment (a `#` line that is a stack counts); `//` lines too, which the reader skips
      // among the lines that do not parse.
      if (line[0] == '#' || line.substr(0, 2) == "//") continue;
      // Another line that does not parse: the reader skips it with a warning, as flamegraph.pl
      // does, so a few of them among stacks are still folded stacks.
      ++unparsed;
      continue;
    }
    ++judged;
  }
  if (unparsed > 0) return judged > unparsed ? kPlausible : kNotMine;
  return judged > 0 || cut_line_plausible ? kPlausible : kNotMine;
}

const ReaderSpec kFoldedReader = {
    "folded",
    "folded stacks (FlameGraph's frame;frame;... COUNT lines)",
    ReaderShape::kStreaming,
    "folded2prof",
    SniffFolded,
    ReadFolded,
};

}  // namespace proftools
