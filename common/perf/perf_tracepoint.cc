#include "common/perf/perf_tracepoint.h"

#include <string>

#include "common/perf/perf_script.h"

namespace proftools {
namespace {

struct Argument {
  std::string_view key;
  std::string_view value;  // from the first byte of the value to the end of its last word
};

// Calls `each(Argument)` for every `KEY=VALUE` argument; false when the text is not of that form.
template <typename Each>
bool ForEachArgument(std::string_view args, Each each) {
  args = TrimPerfLine(args);
  if (args.empty()) return true;
  Argument current;
  bool have = false;
  size_t i = 0;
  while (i < args.size()) {
    while (i < args.size() && (args[i] == ' ' || args[i] == '\t')) ++i;
    const size_t start = i;
    while (i < args.size() && args[i] != ' ' && args[i] != '\t') ++i;
    const std::string_view word = args.substr(start, i - start);
    if (word.empty()) break;
    const size_t eq = word.find('=');
    if (word == "==>") {
      if (have) each(current);
      have = false;
    } else if (eq != std::string_view::npos && eq > 0) {
      if (have) each(current);
      current = Argument{word.substr(0, eq), word.substr(eq + 1)};
      have = true;
    } else if (have) {
      // The value goes on: it spans up to the end of this word.
      const char* begin = current.value.data();
      current.value =
          std::string_view(begin, static_cast<size_t>(word.data() + word.size() - begin));
    } else {
      return false;
    }
  }
  if (have) each(current);
  return true;
}

Label MakeLabel(const Argument& argument) {
  std::string key(argument.key);
  if (key == "comm" || key == "pid" || key == "tid" || key == "cpu") key = "arg." + key;
  std::string_view value = argument.value;
  std::string unit;
  constexpr std::string_view kNanos = " [ns]";
  if (value.size() > kNanos.size() && value.substr(value.size() - kNanos.size()) == kNanos) {
    value.remove_suffix(kNanos.size());
    unit = "nanoseconds";
  }
  int64_t number = 0;
  if (ParsePerfInteger(value, &number))
    return Label::Number(std::move(key), number, std::move(unit));
  return Label::String(std::move(key), std::string(argument.value));
}

}  // namespace

void AppendTracepointLabels(std::string_view args, std::vector<Label>* labels) {
  const size_t before = labels->size();
  if (!ForEachArgument(args, [&](const Argument& a) { labels->push_back(MakeLabel(a)); })) {
    labels->resize(before);
    labels->push_back(Label::String("args", std::string(TrimPerfLine(args))));
  }
}

std::string_view TracepointArgument(std::string_view args, std::string_view key) {
  std::string_view found;
  ForEachArgument(args, [&](const Argument& a) {
    if (found.empty() && a.key == key) found = a.value;
  });
  return found;
}

}  // namespace proftools
