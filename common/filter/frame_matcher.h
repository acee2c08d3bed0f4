// How pprof's frame filters match a regular expression (profile/filter.go, prune.go): a line
// matches by its function's name or file name, a location also by its mapping's file; a match
// is anywhere in the text (add ^ and $ to anchor). --prune-from and drop_frames match the
// function name only, with its argument list cut off (pprof's simplifyFunc).
#ifndef PROFTOOLS_COMMON_FILTER_FRAME_MATCHER_H_
#define PROFTOOLS_COMMON_FILTER_FRAME_MATCHER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/filter/definition_emitter.h"
#include "common/filter/stack_transform.h"
#include "common/model/definitions.h"

namespace re2 {
class RE2;
}

namespace proftools {

// A function name without its argument list, as pprof's simplifyFunc makes it: a leading '.'
// (PPC ELF v1) removed, then everything from the first '(' that does not begin
// "(anonymous namespace)" or "operator()".
std::string_view SimplifiedFunctionName(std::string_view name);

// The line of a frame; null for the frame of a location without lines.
const Line* LineOf(const Definitions& defs, const FrameRef& frame);

class FrameMatcher {
 public:
  explicit FrameMatcher(std::shared_ptr<const re2::RE2> regex);
  ~FrameMatcher();

  // The function's name or file name matches.
  bool Function(const Definitions& defs, uint64_t function_id);
  // The mapping's file matches (false without a mapping: id 0).
  bool Mapping(const Definitions& defs, uint64_t mapping_id);
  // The function's simplified name matches.
  bool SimplifiedName(const Definitions& defs, uint64_t function_id);

  // A frame matches by its line's function, or by its location's mapping.
  bool Frame(const Definitions& defs, const FrameRef& frame);
  // Some frame of the run, or its location's mapping, matches (pprof's Location.matchesName).
  bool Run(const Definitions& defs, const std::vector<FrameRef>& frames, FrameRun run);
  // The location of a run by its mapping.
  bool RunMapping(const Definitions& defs, const std::vector<FrameRef>& frames, FrameRun run);

 private:
  bool Cached(std::unordered_map<uint64_t, bool>* cache, uint64_t id, std::string_view text);

  std::shared_ptr<const re2::RE2> regex_;
  std::unordered_map<uint64_t, bool> functions_, mappings_, simplified_;
};

// A stack transform driven by one expression, with room to rebuild the frames.
class MatchingTransform : public StackTransform {
 protected:
  explicit MatchingTransform(std::shared_ptr<const re2::RE2> regex) : matcher_(std::move(regex)) {}

  FrameMatcher matcher_;
  std::vector<FrameRun> runs_;
  std::vector<FrameRef> kept_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_FRAME_MATCHER_H_
