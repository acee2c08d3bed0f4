#include "common/perf/perf_events.h"

#include "common/perf/perf_script.h"

namespace proftools {
namespace {

// perf's event modifiers (tools/perf/util/parse-events.l, `modifier_event`).
bool IsModifierLetter(char c) {
  switch (c) {
    case 'u':
    case 'k':
    case 'h':
    case 'I':
    case 'G':
    case 'H':
    case 'p':
    case 'P':
    case 'S':
    case 'D':
    case 'W':
    case 'e':
    case 'b':
      return true;
    default:
      return false;
  }
}

bool AllModifiers(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsModifierLetter(c)) return false;
  }
  return true;
}

}  // namespace

PerfEventName SplitPerfEvent(std::string_view event) {
  // `pmu/term=.../MODS` or `name:MODS`.
  const size_t cut = event.find_last_of(":/");
  if (cut == std::string_view::npos || cut == 0) return {event, {}};
  const std::string_view suffix = event.substr(cut + 1);
  if (!AllModifiers(suffix)) return {event, {}};
  // `pmu/.../MODS` and `name:MODS` lose the slash or colon before the modifiers too.
  return {event.substr(0, cut), suffix};
}

bool ParsePerfEventComment(std::string_view comment, std::string* name) {
  comment = TrimPerfLine(comment);
  if (comment.substr(0, 1) != "#") return false;
  comment = TrimPerfLine(comment.substr(1));
  constexpr std::string_view kEvent = "event : name = ";
  if (comment.substr(0, kEvent.size()) != kEvent) return false;
  comment.remove_prefix(kEvent.size());
  const size_t comma = comment.find(", ");
  *name = std::string(TrimPerfLine(comment.substr(0, comma)));
  return !name->empty();
}

}  // namespace proftools
