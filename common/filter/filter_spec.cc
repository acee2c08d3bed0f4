#include "common/filter/filter_spec.h"

#include <re2/re2.h>

#include <algorithm>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/folded/folded_syntax.h"

namespace proftools {
namespace {

[[noreturn]] void Fail(const std::string& option, std::string_view text, const std::string& why) {
  throw UsageError(option + ": " + Printable(text) + ": " + why);
}

TimeBound ParseTimeBound(std::string_view whole, std::string_view text) {
  TimeBound bound;
  if (text.empty()) return bound;
  std::string error;
  if (text.back() == '%') {
    Decimal percent;
    if (!ParseDecimal(text.substr(0, text.size() - 1), &percent) || percent.negative ||
        percent.scale > 7) {
      Fail("--time", whole, Printable(text) + " is not a percentage from 0% to 100%");
    }
    // percent × 10^7 parts per 10^9, exactly (at most 7 digits after the point).
    unsigned __int128 ppb = percent.digits;
    for (int k = percent.scale; k < 7; ++k) ppb *= 10;
    if (ppb > static_cast<unsigned __int128>(kPartsPerBillion)) {
      Fail("--time", whole, Printable(text) + " is more than 100%");
    }
    bound.kind = TimeBound::Kind::kPercent;
    bound.ppb = static_cast<int64_t>(ppb);
    return bound;
  }
  if (text.front() == '@') {
    Quantity quantity;
    std::string number(text.substr(1));
    // A bare timestamp is in seconds, as perf report --time takes it.
    const bool bare = !number.empty() && number.back() >= '0' && number.back() <= '9';
    if (bare) number += "s";
    if (!ParseQuantity(number, &quantity, &error) || quantity.kind != UnitKind::kTime ||
        quantity.value < 0) {
      Fail("--time", whole,
           Printable(text) +
               " is not a timestamp: @ and a number of seconds, or with a unit (@1500ms)");
    }
    bound.kind = TimeBound::Kind::kAbsolute;
    bound.nanos = quantity.value;
    return bound;
  }
  // A bare 0 (`--time 0..300ms`, `0.0`) is the same offset in every unit: it needs none.
  const size_t point = text.find('.');
  const std::string_view whole_part = text.substr(0, point);
  const bool zero = !whole_part.empty() &&
                    whole_part.find_first_not_of('0') == std::string_view::npos &&
                    (point == std::string_view::npos ||
                     text.find_first_not_of('0', point + 1) == std::string_view::npos);
  if (zero) {
    bound.kind = TimeBound::Kind::kOffset;
    bound.nanos = 0;
    return bound;
  }
  if (!ParseDuration(text, &bound.nanos, &error)) {
    Fail("--time", whole,
         Printable(text) +
             " is not a time: use an offset with a unit (1.5s, 250ms; ns us ms s m h), a "
             "percentage of the span (10%), or a timestamp (@12.5)");
  }
  bound.kind = TimeBound::Kind::kOffset;
  return bound;
}

int64_t BoundValue(const TimeBound& bound) {
  return bound.kind == TimeBound::Kind::kPercent ? bound.ppb : bound.nanos;
}

}  // namespace

bool TimeSpec::NeedsSourceSpans() const {
  auto relative = [](const TimeBound& b) {
    return b.kind == TimeBound::Kind::kOffset || b.kind == TimeBound::Kind::kPercent;
  };
  return relative(from) || relative(to) || last_nanos.has_value();
}

TimeSpec ParseTimeWindow(std::string_view text) {
  const size_t dots = text.find("..");
  if (dots == std::string_view::npos || text.find("..", dots + 1) != std::string_view::npos) {
    Fail("--time", text, "give a window A..B (either end may be left out: 10s.., ..5s)");
  }
  TimeSpec spec;
  spec.from = ParseTimeBound(text, text.substr(0, dots));
  spec.to = ParseTimeBound(text, text.substr(dots + 2));
  if (spec.from.kind == TimeBound::Kind::kOpen && spec.to.kind == TimeBound::Kind::kOpen) {
    Fail("--time", text, "both ends are open: the window would be everything");
  }
  if (spec.from.kind == spec.to.kind && BoundValue(spec.from) > BoundValue(spec.to)) {
    Fail("--time", text, "the start is after the end");
  }
  return spec;
}

LabelMatch ParseLabelMatch(const std::string& option, std::string_view text) {
  LabelMatch match;
  match.text = std::string(text);
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    Fail(option, text, "give KEY=VALUE (a number, a range LOW..HIGH, or a regular expression)");
  }
  match.key = std::string(text.substr(0, equals));
  const std::string_view value = text.substr(equals + 1);
  // Numeric when the value is a number or a range of numbers (with units); else a regexp.
  const size_t dots = value.find("..");
  const std::string_view low_text = dots == std::string_view::npos ? value : value.substr(0, dots);
  const std::string_view high_text =
      dots == std::string_view::npos ? value : value.substr(dots + 2);
  Quantity low, high;
  std::string error;
  const bool low_ok = low_text.empty() || ParseQuantity(low_text, &low, &error);
  const bool high_ok = high_text.empty() || ParseQuantity(high_text, &high, &error);
  if (low_ok && high_ok && !(low_text.empty() && high_text.empty())) {
    if (!low_text.empty() && !high_text.empty() && low.kind != high.kind &&
        low.kind != UnitKind::kNone && high.kind != UnitKind::kNone) {
      Fail(option, text, "the two ends have units of different kinds");
    }
    match.numeric = true;
    match.kind = !low_text.empty() ? low.kind : high.kind;
    if (!low_text.empty()) match.low = low.value;
    if (!high_text.empty()) match.high = high.value;
    if (match.low > match.high) Fail(option, text, "the low end is above the high end");
    return match;
  }
  match.regex = std::make_shared<re2::RE2>(std::string(value), re2::RE2::Quiet);
  if (!match.regex->ok()) {
    Fail(option, text, "bad regular expression: " + match.regex->error());
  }
  return match;
}

DeriveSpec ParseDerive(std::string_view text) {
  DeriveSpec spec;
  spec.text = std::string(text);
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    Fail("--derive", text, "give NAME=EXPR, e.g. live=alloc_space-free_space");
  }
  spec.name = std::string(text.substr(0, equals));
  spec.expression = std::string(text.substr(equals + 1));
  if (spec.expression.empty()) Fail("--derive", text, "expected a type name after '='");
  const char last = spec.expression.back();
  if (last == '+' || last == '-') Fail("--derive", text, "expected a type name at its end");
  return spec;
}

std::vector<std::string> SplitList(const std::string& option, std::string_view text) {
  std::vector<std::string> items;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    if (i == start) Fail(option, text, "an empty item in the list");
    items.emplace_back(text.substr(start, i - start));
    start = i + 1;
  }
  return items;
}

}  // namespace proftools

namespace proftools {

bool IsLiteralPattern(std::string_view pattern, bool literal) {
  return literal || (!pattern.empty() && pattern[0] == '=');
}

std::string LiteralFrameName(std::string_view pattern) {
  if (!pattern.empty() && pattern[0] == '=') pattern.remove_prefix(1);
  // Reports write `;` and `\` in names as \x3b and \\ (folded escapes): undone, so that a
  // sequence copied from --sequences or --peek matches the names it came from.
  return UnescapeFoldedFrame(pattern);
}

std::string FramePatternRegex(std::string_view pattern, bool literal) {
  if (!IsLiteralPattern(pattern, literal)) return std::string(pattern);
  return "^" + re2::RE2::QuoteMeta(LiteralFrameName(pattern)) + "$";
}

std::shared_ptr<re2::RE2> CompileFrameRegex(const std::string& option,
                                            const std::vector<std::string>& given, bool literal) {
  if (given.empty()) return nullptr;
  std::vector<std::string> patterns;
  for (const std::string& pattern : given) patterns.push_back(FramePatternRegex(pattern, literal));
  std::string alternatives;
  for (const std::string& pattern : patterns) {
    // Each alone first, so that a message names the faulty one.
    re2::RE2 one(pattern, re2::RE2::Quiet);
    if (!one.ok()) {
      throw UsageError(option + ": bad regular expression " + Printable(pattern) + ": " +
                       one.error() + " (=NAME or --literal matches a frame name as it is)");
    }
    alternatives += (alternatives.empty() ? "(?:" : "|(?:") + pattern + ")";
  }
  return std::make_shared<re2::RE2>(patterns.size() == 1 ? patterns[0] : alternatives,
                                    re2::RE2::Quiet);
}

std::vector<std::shared_ptr<re2::RE2>> ParseFocusSequence(std::string_view text, bool literal) {
  std::vector<std::shared_ptr<re2::RE2>> sequence;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(text.find(';', start), text.size());
    const std::string element(text.substr(start, end - start));
    if (element.empty()) {
      Fail("--focus-seq", text, "an empty element: give expressions separated by ';' (A;B;C)");
    }
    sequence.push_back(CompileFrameRegex("--focus-seq", {element}, literal));
    if (end == text.size()) break;
    start = end + 1;
  }
  return sequence;
}

std::vector<std::string> FrameNameHints(const FrameSpec& frames, const Definitions& defs) {
  std::vector<std::string> hints;
  for (const auto& [option, pattern] : frames.regex_patterns) {
    const std::string unescaped = LiteralFrameName(pattern);
    re2::RE2 regex(pattern, re2::RE2::Quiet);
    for (const Function& function : defs.functions.items()) {
      if (function.name != pattern && function.name != unescaped) continue;
      if (regex.ok() && re2::RE2::PartialMatch(function.name, regex)) break;  // it matches
      hints.push_back(option + " " + Printable(pattern) +
                      " is a frame's name but, as a regular expression, does not match it: "
                      "write =NAME or add --literal to match frame names as they are");
      break;
    }
  }
  return hints;
}

}  // namespace proftools
