#include "common/chrome/v8log/v8_code_names.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "common/base/text_syntax.h"

namespace proftools {

uint64_t JsLocation(Interner* interner, std::string_view text) {
  Function function;
  Line line;
  const size_t space = text.rfind(' ');
  const std::string_view where = space == std::string_view::npos ? text : text.substr(space + 1);
  const size_t last = where.rfind(':');
  const size_t before = last == std::string_view::npos || last == 0 ? std::string_view::npos
                                                                    : where.rfind(':', last - 1);
  int64_t line_number = 0, column = 0;
  if (before != std::string_view::npos &&
      ParseInt(where.substr(before + 1, last - before - 1), &line_number) &&
      ParseInt(where.substr(last + 1), &column) && line_number >= 0 && column >= 0) {
    function.file = std::string(where.substr(0, before));
    function.start_line = line_number;
    line.line = line_number;
    line.column = column;
    text = space == std::string_view::npos ? std::string_view() : text.substr(0, space);
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

}  // namespace proftools
