#include "common/chrome/v8log/v8_code_names.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "common/base/text_syntax.h"

namespace proftools {

uint64_t JsLocation(Interner* interner, std::string_view text,
                    const std::unordered_set<std::string>& scripts) {
  Function function;
  Line line;
  // ":line:column" at the end, then the script before it.
  const size_t last = text.rfind(':');
  const size_t before = last == std::string_view::npos || last == 0 ? std::string_view::npos
                                                                    : text.rfind(':', last - 1);
  int64_t line_number = 0, column = 0;
  if (before != std::string_view::npos &&
      ParseInt(text.substr(before + 1, last - before - 1), &line_number) &&
      ParseInt(text.substr(last + 1), &column) && line_number >= 0 && column >= 0) {
    const std::string_view head = text.substr(0, before);  // "name script"
    size_t split = std::string_view::npos;                 // the space before the script
    for (size_t space = head.find(' '); space != std::string_view::npos && !scripts.empty();
         space = head.find(' ', space + 1)) {
      if (scripts.count(std::string(head.substr(space + 1))) != 0) {
        split = space;
        break;
      }
    }
    if (split == std::string_view::npos) split = head.rfind(' ');
    function.file = std::string(split == std::string_view::npos ? head : head.substr(split + 1));
    function.start_line = line_number;
    line.line = line_number;
    line.column = column;
    text = split == std::string_view::npos ? std::string_view() : head.substr(0, split);
  }
  function.name = text.empty() ? "(anonymous)" : std::string(text);
  line.function_id = interner->Function(function);
  Location location;
  location.lines.push_back(line);
  return interner->Location(location);
}

uint64_t NamedLocation(Interner* interner, std::string name) {
  Function function;
  function.name = std::move(name);
  Location location;
  location.lines.push_back(Line{interner->Function(function), 0, 0});
  return interner->Location(location);
}

Label VmStateLabel(uint64_t state) {
  static constexpr const char* kStates[] = {"JS",       "GC",     "PARSER",   "BYTECODE_COMPILER",
                                            "COMPILER", "OTHER",  "EXTERNAL", "ATOMICS_WAIT",
                                            "IDLE",     "LOGGING"};
  if (state < std::size(kStates)) return Label::String("vm_state", kStates[state]);
  return Label::Number("vm_state", static_cast<int64_t>(std::min<uint64_t>(state, INT64_MAX)));
}

ProfileHeader V8TicksHeader(const std::string& uri, int64_t interval_us,
                            std::vector<MetaEntry> meta) {
  ProfileHeader header;
  header.meta = std::move(meta);
  header.sources.push_back(Source{1, "v8-log", uri, std::nullopt});
  header.types = {{"samples", "count"}, {"cpu", "microseconds"}};
  header.default_type = "cpu";
  header.period = Period{{"cpu", "microseconds"}, interval_us};
  return header;
}

}  // namespace proftools
