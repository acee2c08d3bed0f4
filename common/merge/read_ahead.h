#ifndef PROFTOOLS_COMMON_MERGE_READ_AHEAD_H_
#define PROFTOOLS_COMMON_MERGE_READ_AHEAD_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/merge/merger.h"

namespace proftools {

// The inputs of a merge, each read on a thread of its own ahead of its turn (Merger::Prefetch),
// handed out in order. While one is merged, the next is read; when that one is small, the one
// after it too. A fleet of small profiles needs the second: the input after the one being merged
// is read whole before its turn comes, and with nothing else to read one core waited a fifth of
// the merge for the input being merged (measured in stop 21: `git show 17267c7:BENCHMARKS.md`).
// Large inputs are read one ahead, because a pprof input is held inflated while it is read.
class ReadAhead {
 public:
  // `merger` must outlive this. An input's uri is its path, empty for standard input ("-").
  ReadAhead(const Merger* merger, std::vector<std::string> paths);

  // The next input in order, reading ahead the ones after it; null after the last.
  std::unique_ptr<PrefetchedInput> Next();

  // How many inputs are being read ahead of the last one handed out.
  size_t reading_ahead() const { return ahead_.size(); }

 private:
  void Fill();

  const Merger* merger_;
  std::vector<std::string> paths_;
  size_t started_ = 0;  // paths_[0, started_) are prefetched (or handed out)
  struct Ahead {
    std::unique_ptr<PrefetchedInput> input;
    bool small;  // a regular file of at most kSmallInput bytes
  };
  std::deque<Ahead> ahead_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_READ_AHEAD_H_
