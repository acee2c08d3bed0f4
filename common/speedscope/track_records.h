// Fixed-size records of several tracks, added interleaved and read back track by track, in the
// order each track's were added, from temporary files: what a writer needs whose format groups
// samples by thread (speedscope's profiles) when the profile interleaves them, without holding
// the samples in memory. Records go to a spool as they come; Finish distributes them (a
// counting sort: each track's place is known from the counts) into a second file, through a
// small buffer per track. One track needs no second file. Memory: the counts and the buffers,
// per track.
#ifndef PROFTOOLS_COMMON_SPEEDSCOPE_TRACK_RECORDS_H_
#define PROFTOOLS_COMMON_SPEEDSCOPE_TRACK_RECORDS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/io/spool.h"

namespace proftools {

// A record: `width` 64-bit integers, the same number for every record.
class TrackRecords {
 public:
  // `name` names the profile in messages about the temporary files.
  TrackRecords(std::string name, size_t width);
  ~TrackRecords();
  void Add(uint32_t track, const int64_t* record);
  uint64_t count(uint32_t track) const { return track < counts_.size() ? counts_[track] : 0; }
  // Ends adding; from then on ForEach reads.
  void Finish();
  // Calls `each` for the records of `track` in order; may be called more than once per track.
  void ForEach(uint32_t track, const std::function<void(const int64_t*)>& each) const;

 private:
  // A stored record: its track, then the record.
  size_t stored_words() const { return width_ + 1; }
  void Read(int fd, uint64_t first, uint64_t count,
            const std::function<void(const int64_t*)>& each) const;
  void WriteAt(int fd, uint64_t offset, const void* data, size_t size) const;

  std::string name_;
  size_t width_;
  SpoolFile added_;
  std::vector<int64_t> buffer_;  // records not yet written to `added_`
  uint64_t total_ = 0;
  std::vector<uint64_t> counts_;
  std::vector<uint64_t> firsts_;  // after Finish: each track's first record in `sorted_`
  std::unique_ptr<SpoolFile> sorted_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SPEEDSCOPE_TRACK_RECORDS_H_
