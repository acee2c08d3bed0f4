#include "common/cli/profile_inputs.h"

#include <utility>

#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/merge/merger.h"
#include "common/text/sample_times.h"
#include "common/text/text_codec.h"
#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools {

ProfileInputs::ProfileInputs(std::vector<std::string> paths, ReadOptions options)
    : paths_(std::move(paths)), options_(std::move(options)) {}

ProfileInputs::~ProfileInputs() = default;

std::string ProfileInputs::name() const {
  if (paths_.size() != 1) return "(merged profile)";
  return paths_[0] == "-" ? "<stdin>" : paths_[0];
}

void ProfileInputs::Merge(ProfileSink* sink) {
  MergeOptions options;
  options.read = options_;
  Merger merger(options);
  for (const std::string& path : paths_) {
    Input input = OpenInput(path);
    merger.Add(input, path == "-" ? "" : path);
  }
  merger.Finish(sink);
}

void ProfileInputs::MakeReplayable() {
  if (spool_ || (paths_.size() == 1 && IsRegularFile(paths_[0]))) return;
  auto spool = std::make_unique<SpoolFile>();
  SpoolWriter writer(*spool, options_.max_spool_size, name());
  CanonicalWriter canonical(&writer);
  Read(&canonical);
  writer.Flush();
  spool_ = std::move(spool);
}

void ProfileInputs::Read(ProfileSink* sink, bool again) {
  if (again) MakeReplayable();
  if (spool_) {
    std::unique_ptr<ByteStream> stream = spool_->Reopen(name());
    ReadText(stream.get(), name(), sink, nullptr);
  } else if (paths_.size() == 1) {
    Input input = OpenInput(paths_[0]);
    ReadProfile(input, sink, options_);
  } else {
    Merge(sink);
  }
}

namespace {

// Passes each sample's times on, for inputs that must be parsed (any format but prof text).
class SampleTimesSink : public DiscardingSink {
 public:
  explicit SampleTimesSink(const std::function<void(uint64_t, int64_t, int64_t)>& on_sample)
      : on_sample_(on_sample) {}
  void OnSample(const Sample& sample) override {
    if (sample.time_nanos) {
      on_sample_(sample.source_id, *sample.time_nanos, sample.duration_nanos.value_or(0));
    }
  }

 private:
  const std::function<void(uint64_t, int64_t, int64_t)>& on_sample_;
};

}  // namespace

void ProfileInputs::ScanSampleTimes(
    const std::function<void(uint64_t, int64_t, int64_t)>& on_sample) {
  MakeReplayable();
  if (spool_) {
    std::unique_ptr<ByteStream> stream = spool_->Reopen(name());
    proftools::ScanSampleTimes(stream.get(), on_sample);
    return;
  }
  Input input = OpenInput(paths_[0]);
  if (&ReaderFor(input, options_) == &kProfTextReader) {
    proftools::ScanSampleTimes(input.stream.get(), on_sample);
    return;
  }
  SampleTimesSink sink(on_sample);
  ReadProfile(input, &sink, options_);
}

}  // namespace proftools
