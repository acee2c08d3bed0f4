#include "common/cli/profile_inputs.h"

#include <utility>

#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/merge/merger.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools {

ProfileInputs::ProfileInputs(std::vector<std::string> paths, uint64_t max_pprof_size)
    : paths_(std::move(paths)), max_pprof_size_(max_pprof_size) {}

ProfileInputs::~ProfileInputs() = default;

std::string ProfileInputs::name() const {
  if (paths_.size() != 1) return "(merged profile)";
  return paths_[0] == "-" ? "<stdin>" : paths_[0];
}

void ProfileInputs::Merge(ProfileSink* sink) {
  MergeOptions options;
  options.max_pprof_size = max_pprof_size_;
  Merger merger(options);
  for (const std::string& path : paths_) {
    Input input = OpenInput(path);
    merger.Add(input, path == "-" ? "" : path);
  }
  merger.Finish(sink);
}

void ProfileInputs::Read(ProfileSink* sink, bool again) {
  if (spool_) {
    std::unique_ptr<ByteStream> stream = spool_->Reopen(name());
    ReadText(stream.get(), name(), sink, nullptr);
    return;
  }
  const bool reopenable = paths_.size() == 1 && IsRegularFile(paths_[0]);
  if (again && !reopenable) {
    auto spool = std::make_unique<SpoolFile>();
    SpoolWriter writer(*spool);
    CanonicalWriter canonical(&writer);
    Read(&canonical, false);
    writer.Flush();
    spool_ = std::move(spool);
    Read(sink, false);
    return;
  }
  if (paths_.size() == 1) {
    ReadOptions options;
    options.max_pprof_size = max_pprof_size_;
    Input input = OpenInput(paths_[0]);
    ReadProfile(input, sink, options);
  } else {
    Merge(sink);
  }
}

}  // namespace proftools
