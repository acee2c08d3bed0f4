// Folded stacks with the views FlameGraph users expect from stackcollapse-perf.pl, for
// prof-text --folded:
//
//   --flamegraph       frame names as stackcollapse-perf.pl writes them: argument lists cut
//                      off, `;` -> `:`, `[unknown]` frames named after their DSO, Java class
//                      names without the leading `L` in java processes, perf-map-agent inline
//                      chains (`A->B` in a JIT DSO) marked `_[i]` as the Perl script marks
//                      them, other inlined frames bare (as it prints perf's `(inlined)` frames
//                      unless given --inline), and the thread name (when a sample has one) as
//                      the root frame. Where that script is wrong, this view is not (see
//                      man/man1/perf2prof.1, DIFFERENCES).
//   --root TEMPLATE    a root frame made from each sample's labels: `{comm}`, `{pid}`,
//                      `{tid}`, `{cpu}` or any label key in braces (`?` when a sample has no
//                      such label); stackcollapse-perf's --pid is `{comm}-{pid}`, --tid
//                      `{comm}-{pid}/{tid}`.
//   --annotate WHAT    suffix kernel frames `_[k]` (kernel), JIT frames `_[j]` (jit), inlined
//                      frames `_[i]` (inline), or all three (all).
//   --unknown-addresses  `[unknown]` frames as `[DSO <ADDR>]` (stackcollapse-perf's --addrs).
//
// Memory grows with distinct (root, stack) pairs, not with samples.
#ifndef PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_VIEW_H_
#define PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_VIEW_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/model/sink.h"
#include "common/report/text/folded_lines.h"

namespace proftools {

struct FoldedViewOptions {
  bool flamegraph = false;
  std::string root;  // template; empty: no root frame (with flamegraph: "{comm}")
  bool annotate_kernel = false;
  bool annotate_jit = false;
  bool annotate_inline = false;
  bool unknown_addresses = false;
  bool Active() const {
    return flamegraph || !root.empty() || annotate_kernel || annotate_jit || annotate_inline ||
           unknown_addresses;
  }
};

// Parses the --annotate argument: kernel, jit, inline or all. False when it is none of these.
bool ParseAnnotate(const std::string& text, FoldedViewOptions* options);

// Checks a root template: braces balanced, keys non-empty. Throws UsageError.
void CheckRootTemplate(const std::string& root);

// A sink that sums samples per (root, stack) and then writes folded lines, sorted bytewise.
class FoldedView : public DefinitionKeepingSink {
 public:
  // `value` names the type to sum ("" = the default type).
  FoldedView(FoldedViewOptions options, std::string value);
  void OnHeader(const ProfileHeader& header) override;
  void OnSample(const Sample& sample) override;
  // Writes `root;frame;...;leaf VALUE` lines (zero sums left out).
  void Write(ByteSink* out);

 private:
  struct Key {
    uint32_t root;
    uint64_t stack;
    bool operator==(const Key& o) const { return root == o.root && stack == o.stack; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return k.stack * 0x9e3779b97f4a7c15ull ^ k.root; }
  };

  std::string Root(const Sample& sample) const;
  // The folded frames of a location, outermost first, for a java process or not.
  // Frame ids in lines_.
  const std::vector<uint32_t>& LocationFrames(uint64_t location_id, bool java);

  FoldedViewOptions options_;
  bool comm_root_ = false;  // the root is --flamegraph's implicit {comm}
  std::string value_name_;
  int value_index_ = 0;
  std::vector<std::string> roots_;  // root id -> text
  std::unordered_map<std::string, uint32_t> root_ids_;
  std::vector<bool> root_is_java_;  // root id -> the sample's comm starts with "java"
  std::unordered_map<Key, int64_t, KeyHash> sums_;
  std::vector<uint32_t> root_frame_ids_;  // root id -> its frame id in lines_
  std::unordered_map<uint64_t, std::vector<uint32_t>> frames_[2];  // [java]
  FoldedLines lines_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_TEXT_FOLDED_VIEW_H_
