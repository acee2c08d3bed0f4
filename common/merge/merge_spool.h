// The body of a merge, parked on disk until the merged preamble is known.
//
// A merged profile declares its value types (the union over all inputs) before its first record,
// and they are known only once every input has been read. Holding the body in memory would make
// a merge's memory grow with samples (and hold every definition a second time), so each input's
// new definitions and its samples, ids already remapped, go to an unlinked temporary file in a
// compact binary form (varints), in the order they came: definitions still just before their
// first use, which keeps the canonical writer's backlog small when the file is replayed.
#ifndef PROFTOOLS_COMMON_MERGE_MERGE_SPOOL_H_
#define PROFTOOLS_COMMON_MERGE_MERGE_SPOOL_H_

#include <cstdint>
#include <future>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/io/spool.h"
#include "common/model/model.h"

namespace proftools {

// A sample's labels as bytes (appended to `out`), and back: the spool's form, and the
// aggregator's key.
void EncodeLabels(const std::vector<Label>& labels, std::string* out);
void DecodeLabels(std::string_view encoded, std::vector<Label>* labels);

// kSampleRun: a number of samples in a row that were summed as they arrived (CountSample), kept
// only as a count so that a replay knows where they were.
enum class SpoolRecord {
  kEnd,
  kInput,
  kMapping,
  kFunction,
  kLocation,
  kStack,
  kSample,
  kSampleRun
};

class MergeSpool {
 public:
  MergeSpool() = default;
  MergeSpool(const MergeSpool&) = delete;
  MergeSpool& operator=(const MergeSpool&) = delete;

  // The records that follow come from input number `index`.
  void WriteInput(uint64_t index);
  void WriteMapping(const Mapping& mapping);
  void WriteFunction(const Function& function);
  void WriteLocation(const Location& location);
  void WriteStack(uint64_t id, const std::vector<uint64_t>& location_ids);
  // The same, with the location ids already varint-encoded one after the other.
  void WriteEncodedStack(uint64_t id, std::string_view encoded_ids);
  // `sample` with the source and stack ids of the merged profile, its labels as the id of their
  // set (LabelSetId; its own labels are not read); its values are as many as its input's types.
  void WriteSample(uint64_t source_id, uint64_t stack_id, const Sample& sample, uint64_t label_set);
  // A sample summed as it arrived, by the merge: only counted. Samples counted in a row become
  // one kSampleRun record, written before the next record of another kind (a merge's last pass
  // then needs only their number: a fleet merge wrote and passed over 200,000 samples for it).
  void CountSample() { ++run_; }
  // The id of a set of labels (0: none), equal for equal sets, numbered in order of first call.
  // A sample's labels go to the spool as the id of their set, each distinct set encoded once
  // (EncodeLabels) and decoded once: a fleet's samples repeat a few sets (comm, tid) and
  // encoding and decoding them per sample was a seventh of a merge.
  uint64_t LabelSetId(const std::vector<Label>& labels);

  // The current end, and going back to it (dropping what was written since): a skipped input
  // takes back its records.
  uint64_t Mark() {
    PutRun();
    return flushed_ + buffer_.size();
  }
  void TruncateTo(uint64_t mark);

  // Starts reading from the beginning. Writing is over.
  void Rewind();
  // The kind of the next record (kEnd after the last); then read it with the matching call.
  SpoolRecord Next();
  uint64_t ReadInput() { return ReadVarint(); }
  uint64_t ReadSampleRun() { return ReadVarint(); }  // how many samples
  void ReadMapping(Mapping* mapping);
  void ReadFunction(Function* function);
  void ReadLocation(Location* location);
  void ReadStack(Stack* stack);
  void SkipStack();
  // Reads a sample that has `value_count` values.
  void ReadSample(size_t value_count, Sample* sample);
  // ReadSample without the labels: returns the sample's label set (0: none), whose labels
  // LabelsOf gives, so that a reader can leave labels alone while they stay the same.
  uint64_t ReadSampleExceptLabels(size_t value_count, Sample* sample);
  // Passes over a sample that has `value_count` values.
  void SkipSample(size_t value_count);
  void LabelsOf(uint64_t label_set, std::vector<Label>* labels) const;

 private:
  void Put(SpoolRecord kind);  // after the samples counted so far, if any
  void PutRun();
  void MaybeFlush();
  // Hands the buffer to a background write (the page-cache copy of a large merge's spool was a
  // twentieth of its time on the merging thread) and goes on in a fresh one.
  void Flush();
  // Waits for the background write; throws its error.
  void AwaitWrite();
  bool Fill(size_t need);  // makes `need` bytes available at read_pos_; false at the end
  uint64_t ReadVarint();
  std::string_view ReadBytes();
  void ReadString(std::string* out);

  SpoolFile file_;
  std::string buffer_;
  std::string labels_;
  std::unordered_map<std::string, uint64_t> label_set_ids_;  // encoded set -> id
  std::vector<std::vector<Label>> label_sets_;               // id - 1 -> the set
  std::vector<Label> last_labels_;  // the last sample's labels written, and their set's id
  uint64_t last_label_set_ = 0;
  uint64_t run_ = 0;  // samples counted since the last record
  uint64_t flushed_ = 0;
  size_t read_pos_ = 0;
  uint64_t read_from_file_ = 0;  // since Rewind
  // The block being written and its write, declared last: destroying the future waits for the
  // write, before the block and the file go.
  std::string writing_;
  std::future<int> write_;  // errno, or 0
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGE_SPOOL_H_
