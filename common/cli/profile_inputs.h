// A program's inputs read as one profile: one input as it is, several merged as prof-merge
// merges them (formats/prof-text.md §5.1: every sample kept, sources kept and renumbered). For
// operations that need two passes (prof-filter's windows relative to each source), the profile
// can be read again: a regular file is reopened, anything else (stdin, several inputs) is
// written once to an unlinked spool file in canonical form and read back from there.
#ifndef PROFTOOLS_COMMON_CLI_PROFILE_INPUTS_H_
#define PROFTOOLS_COMMON_CLI_PROFILE_INPUTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/io/spool.h"
#include "common/load/read_profile.h"
#include "common/model/sink.h"
#include "common/model/writer_spec.h"

namespace proftools {

class ProfileInputs : public ProfileSource {
 public:
  ProfileInputs(std::vector<std::string> paths, ReadOptions options);
  ~ProfileInputs() override;

  // The name of the profile in messages: the input's, or "(merged profile)".
  std::string name() const override;

  // Reads the whole profile into `sink` (which gets OnEnd). `again`: it will be read once more,
  // so spool what cannot be reopened. Call with again = true before the last call.
  void Read(ProfileSink* sink, bool again = false) override;

  // A first pass that needs only when samples happened: `on_sample(source, time, duration)`
  // for every sample with a TIME (duration 0 when absent). Prof text is only scanned
  // (ScanSampleTimes), not parsed. The profile can be Read afterwards.
  void ScanSampleTimes(const std::function<void(uint64_t, int64_t, int64_t)>& on_sample);
  // The same on up to `parts` threads at once, each scanning a part of the input and calling
  // `on_sample(part, source, time, duration)` with its part's number, 0 to parts - 1: one
  // uncompressed prof text file of several megabytes is cut at line ends; anything else is one
  // part.
  void ScanSampleTimesInParts(
      size_t parts, const std::function<void(size_t, uint64_t, int64_t, int64_t)>& on_sample);

  // Spools the profile when it cannot be read twice (stdin, several inputs): then it can be
  // read any number of times (a diff's base read from the profile itself).
  void MakeReplayable();

 private:
  void Merge(ProfileSink* sink);

  std::vector<std::string> paths_;
  ReadOptions options_;
  std::unique_ptr<SpoolFile> spool_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CLI_PROFILE_INPUTS_H_
