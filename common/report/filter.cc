#include "common/report/filter.h"

#include <re2/re2.h>

#include "common/base/diagnostics.h"
#include "common/report/frames.h"

namespace proftools {
namespace {

std::unique_ptr<re2::RE2> Compile(const std::string& pattern, const char* option) {
  if (pattern.empty()) return nullptr;
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<re2::RE2>(pattern, options);
  if (!re->ok()) {
    throw UsageError(std::string("--") + option + ": bad regular expression '" + pattern +
                     "': " + re->error());
  }
  return re;
}

}  // namespace

std::string AnyOfPatterns(const std::vector<std::string>& patterns, const char* option) {
  std::vector<std::string> given;
  for (const std::string& pattern : patterns) {
    if (pattern.empty()) continue;
    Compile(pattern, option);
    given.push_back(pattern);
  }
  if (given.size() == 1) return given[0];
  std::string any;
  for (const std::string& pattern : given) {
    any += (any.empty() ? "(?:" : "|(?:") + pattern + ")";
  }
  return any;
}

SampleFilter::SampleFilter(const FilterOptions& options)
    : focus_(Compile(options.focus, "focus")), ignore_(Compile(options.ignore, "ignore")) {}

SampleFilter::~SampleFilter() = default;

SampleFilter::Verdict SampleFilter::MatchName(const std::string& name) const {
  return Verdict{focus_ != nullptr && re2::RE2::PartialMatch(name, *focus_),
                 ignore_ != nullptr && re2::RE2::PartialMatch(name, *ignore_)};
}

SampleFilter::Verdict SampleFilter::MatchLocation(const Definitions& defs, uint64_t location_id) {
  auto it = by_location_.find(location_id);
  if (it != by_location_.end()) return it->second;
  Verdict verdict{false, false};
  const Location* location = defs.locations.Find(location_id);
  if (location != nullptr && !location->lines.empty()) {
    for (const Line& line : location->lines) {
      const Function* function = defs.functions.Find(line.function_id);
      if (function == nullptr) continue;
      const Verdict one = MatchName(function->name);
      verdict.focus = verdict.focus || one.focus;
      verdict.ignore = verdict.ignore || one.ignore;
    }
  } else if (location != nullptr) {
    // Unsymbolized: match the name the reports show for it.
    FrameExpander expander(defs, Granularity::kFunctions);
    verdict = MatchName(expander.LocationFrames(location_id).front().name);
  }
  by_location_.emplace(location_id, verdict);
  return verdict;
}

bool SampleFilter::Keep(const Definitions& defs, uint64_t stack_id) {
  if (!active()) return true;
  auto it = by_stack_.find(stack_id);
  if (it != by_stack_.end()) return it->second;
  bool focused = focus_ == nullptr;
  bool ignored = false;
  const Stack* stack = defs.stacks.Find(stack_id);
  if (stack != nullptr) {
    for (uint64_t location_id : stack->location_ids) {
      const Verdict verdict = MatchLocation(defs, location_id);
      focused = focused || verdict.focus;
      ignored = ignored || verdict.ignore;
    }
  }
  const bool keep = focused && !ignored;
  by_stack_.emplace(stack_id, keep);
  return keep;
}

}  // namespace proftools
