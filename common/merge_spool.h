// Raw samples of a merge, parked on disk until the merged preamble is known.
//
// A merged profile declares its value types (the union over all inputs) before its first sample,
// and they are known only once every input has been read; holding the samples in memory would
// make a merge's memory grow with their number. So samples go to an unlinked temporary file in
// a compact binary form (varints), and are read back in order.
#ifndef PROFTOOLS_COMMON_MERGE_SPOOL_H_
#define PROFTOOLS_COMMON_MERGE_SPOOL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/model.h"
#include "common/rprof_scan.h"

namespace proftools {

// A sample's labels as bytes (appended to `out`), and back: the spool's form, and the
// aggregator's key.
void EncodeLabels(const std::vector<Label>& labels, std::string* out);
void DecodeLabels(std::string_view encoded, std::vector<Label>* labels);

class SampleSpool {
 public:
  SampleSpool() = default;
  SampleSpool(const SampleSpool&) = delete;
  SampleSpool& operator=(const SampleSpool&) = delete;

  // Appends `sample` with the source and stack ids of the merged profile; its values are as
  // many as its input's types.
  void Write(uint64_t source_id, uint64_t stack_id, const Sample& sample);

  // The current end, and going back to it (dropping what was written since): a skipped input
  // takes back its samples.
  uint64_t Mark() const { return flushed_ + buffer_.size(); }
  void TruncateTo(uint64_t mark);

  // Starts reading from the beginning. Writing is over.
  void Rewind();
  // Reads the next sample, which has `value_count` values, into `sample`.
  void Read(size_t value_count, Sample* sample);

 private:
  void Flush();
  void Fill(size_t need);  // makes `need` bytes available at read_pos_, or throws
  uint64_t ReadVarint();
  std::string_view ReadBytes();

  SpoolFile file_;
  std::string buffer_;
  std::string labels_;
  uint64_t flushed_ = 0;
  size_t read_pos_ = 0;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_SPOOL_H_
