#include "common/filter/frame_matcher.h"

#include <re2/re2.h>

#include <utility>

namespace proftools {

std::string_view SimplifiedFunctionName(std::string_view name) {
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  for (size_t i = name.find('('); i != std::string_view::npos; i = name.find('(', i + 1)) {
    if (name.compare(i, 21, "(anonymous namespace)") == 0) {
      i += 20;
      continue;
    }
    // "operator()" is reserved as a whole: its '(' is the 9th byte.
    if (i >= 8 && name.compare(i - 8, 10, "operator()") == 0) {
      ++i;
      continue;
    }
    return name.substr(0, i);
  }
  return name;
}

const Line* LineOf(const Definitions& defs, const FrameRef& frame) {
  const Location& location = *defs.locations.Find(frame.location_id);
  return location.lines.empty() ? nullptr : &location.lines[frame.line];
}

FrameMatcher::FrameMatcher(std::shared_ptr<const re2::RE2> regex) : regex_(std::move(regex)) {}

FrameMatcher::~FrameMatcher() = default;

bool FrameMatcher::Cached(std::unordered_map<uint64_t, bool>* cache, uint64_t id,
                          std::string_view text) {
  auto it = cache->find(id);
  if (it != cache->end()) return it->second;
  const bool match = re2::RE2::PartialMatch(text, *regex_);
  cache->emplace(id, match);
  return match;
}

bool FrameMatcher::Function(const Definitions& defs, uint64_t function_id) {
  auto it = functions_.find(function_id);
  if (it != functions_.end()) return it->second;
  const proftools::Function& function = *defs.functions.Find(function_id);
  const bool match = re2::RE2::PartialMatch(function.name, *regex_) ||
                     re2::RE2::PartialMatch(function.file, *regex_);
  functions_.emplace(function_id, match);
  return match;
}

bool FrameMatcher::Mapping(const Definitions& defs, uint64_t mapping_id) {
  if (mapping_id == 0) return false;
  return Cached(&mappings_, mapping_id, defs.mappings.Find(mapping_id)->file);
}

bool FrameMatcher::SimplifiedName(const Definitions& defs, uint64_t function_id) {
  return Cached(&simplified_, function_id,
                SimplifiedFunctionName(defs.functions.Find(function_id)->name));
}

bool FrameMatcher::Frame(const Definitions& defs, const FrameRef& frame) {
  const Line* line = LineOf(defs, frame);
  if (line != nullptr && Function(defs, line->function_id)) return true;
  return Mapping(defs, defs.locations.Find(frame.location_id)->mapping_id);
}

bool FrameMatcher::RunMapping(const Definitions& defs, const std::vector<FrameRef>& frames,
                              FrameRun run) {
  return Mapping(defs, defs.locations.Find(frames[run.begin].location_id)->mapping_id);
}

bool FrameMatcher::Run(const Definitions& defs, const std::vector<FrameRef>& frames, FrameRun run) {
  for (size_t i = run.begin; i < run.end; ++i) {
    const Line* line = LineOf(defs, frames[i]);
    if (line != nullptr && Function(defs, line->function_id)) return true;
  }
  return RunMapping(defs, frames, run);
}

}  // namespace proftools
