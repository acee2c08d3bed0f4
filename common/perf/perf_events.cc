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

bool ParsePerfEventSampling(std::string_view comment, PerfEventSampling* sampling) {
  std::string name;
  if (!ParsePerfEventComment(comment, &name)) return false;
  // The number after `KEY = `, for the first of these keys the comment has.
  auto number_after = [&](std::string_view key, uint64_t* value) {
    const size_t at = comment.find(key);
    if (at == std::string_view::npos) return false;
    size_t i = at + key.size();
    if (i >= comment.size() || comment[i] < '0' || comment[i] > '9') return false;
    uint64_t n = 0;
    for (; i < comment.size() && comment[i] >= '0' && comment[i] <= '9'; ++i) {
      if (n > (UINT64_MAX - 9) / 10) return false;
      n = n * 10 + static_cast<uint64_t>(comment[i] - '0');
    }
    *value = n;
    return true;
  };
  PerfEventSampling found;
  uint64_t freq_flag = 0;
  if (number_after("sample_freq } = ", &found.value)) {
    found.frequency = number_after(", freq = ", &freq_flag) && freq_flag != 0;
  } else if (number_after("sample_freq = ", &found.value)) {
    found.frequency = true;
  } else if (!number_after("sample_period = ", &found.value)) {
    return false;
  }
  if (found.value == 0) return false;
  *sampling = found;
  return true;
}

}  // namespace proftools
