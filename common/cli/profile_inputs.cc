#include "common/cli/profile_inputs.h"

#include <exception>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

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

namespace {

// Files smaller than this are scanned in one part: a thread costs more than it saves.
constexpr uint64_t kScanPartBytes = uint64_t{4} << 20;
// A part starts after the first line end at or after an even cut; a line longer than this
// (a stack of a million frames) leaves the file in one part.
constexpr size_t kLongestCutLine = size_t{1} << 20;

// The places where `path` (of `size` bytes) is cut into up to `parts` parts at line ends:
// each part's first byte, then `size`.
std::vector<uint64_t> PartStarts(const std::string& path, uint64_t size, size_t parts) {
  std::vector<uint64_t> starts{0};
  std::string chunk(kLongestCutLine, '\0');
  for (size_t p = 1; p < parts; ++p) {
    const uint64_t cut = size / parts * p;
    if (cut <= starts.back()) continue;
    FileRangeStream stream(path, cut, size);
    size_t filled = 0;
    while (filled < chunk.size()) {
      const size_t n = stream.Read(&chunk[filled], chunk.size() - filled);
      if (n == 0) break;
      filled += n;
    }
    const size_t newline = std::string_view(chunk.data(), filled).find('\n');
    if (newline == std::string_view::npos) break;
    if (cut + newline + 1 < size) starts.push_back(cut + newline + 1);
  }
  starts.push_back(size);
  return starts;
}

}  // namespace

void ProfileInputs::ScanSampleTimesInParts(
    size_t parts, const std::function<void(size_t, uint64_t, int64_t, int64_t)>& on_sample) {
  auto in_one_part = [&] {
    ScanSampleTimes([&](uint64_t source, int64_t time, int64_t duration) {
      on_sample(0, source, time, duration);
    });
  };
  if (parts <= 1 || paths_.size() != 1 || spool_ || !IsRegularFile(paths_[0])) {
    return in_one_part();
  }
  const std::string& path = paths_[0];
  uint64_t size = 0;
  {
    Input input = OpenInput(path);
    if (input.gzipped || &ReaderFor(input, options_) != &kProfTextReader) return in_one_part();
    size = FileSize(path);
  }
  if (size < kScanPartBytes) return in_one_part();
  const std::vector<uint64_t> starts = PartStarts(path, size, parts);
  const size_t count = starts.size() - 1;
  std::vector<std::exception_ptr> failed(count);
  auto scan = [&](size_t part) {
    try {
      FileRangeStream stream(path, starts[part], starts[part + 1]);
      proftools::ScanSampleTimes(&stream, [&](uint64_t source, int64_t time, int64_t duration) {
        on_sample(part, source, time, duration);
      });
    } catch (...) {
      failed[part] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  for (size_t part = 1; part < count; ++part) {
    try {
      helpers.emplace_back(scan, part);
    } catch (const std::system_error&) {
      scan(part);  // no thread to be had: this one scans it
    }
  }
  scan(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failed) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace proftools
