// prof-merge's engine: any number of profiles, of any format proftools reads, into one
// (formats/prof-text.md §5.1).
//
// Each input streams through its reader into this merger: definitions are interned by content
// (identical functions, locations, mappings and stacks are stored once, whatever their ids),
// sources are kept (identical ones once) and renumbered, and new definitions and samples are
// parked in a spool file with their ids already remapped. Finish() then writes the merged
// preamble (which needs every input's types) and replays the spool: definitions, and samples in
// input order, raw or aggregated. Memory grows with distinct definitions (held once, for
// interning) and with --aggregate distinct sample keys, never with samples.
//
// Aggregating, the sums are made as the samples arrive while every input has the same value
// types (the common case: then no value is converted), and those samples are only counted in
// the spool, so that Finish need not read them back. Should an input of other types come, the
// sums so far go to the spool as samples and everything is summed from the spool at the end,
// converted.
#ifndef PROFTOOLS_COMMON_MERGE_MERGER_H_
#define PROFTOOLS_COMMON_MERGE_MERGER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/base/id_table.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "common/merge/merge_header.h"
#include "common/merge/merge_spool.h"
#include "common/model/interner.h"
#include "common/model/sink.h"

namespace proftools {

struct MergeOptions {
  bool aggregate = false;     // sum samples with the same source, stack and labels
  bool drop_sources = false;  // one source for all samples (and aggregation ignores sources)
  // An input that fails leaves the merge as it was, so that the caller can skip it and go on.
  // (Off, a failure is final and the merge is not undone, which saves copying state.)
  bool recoverable = false;
  ReadOptions read;  // how each input is read (its uri is Add's)
};

class BackgroundProducer;
class SampleAggregator;
class BufferedWarnings;

// An input opened and read on a thread of its own ahead of its turn (Merger::Prefetch), so that
// a merge of many inputs decodes the next while it merges this one; merged by Merger::Add.
class PrefetchedInput {
 public:
  PrefetchedInput();
  ~PrefetchedInput();  // stops the reading when the input was not merged
  PrefetchedInput(const PrefetchedInput&) = delete;
  PrefetchedInput& operator=(const PrefetchedInput&) = delete;

 private:
  friend class Merger;
  std::string path_, uri_;
  std::string name_;                              // the input's name, set by the reading thread
  const char* source_type_ = "";                  // its reader's name, set by the reading thread
  std::unique_ptr<BufferedWarnings> warnings_;    // the reader's, shown when it is merged
  std::unique_ptr<BackgroundProducer> producer_;  // last: stopped before the rest goes
};

class Merger {
 public:
  explicit Merger(MergeOptions options);
  ~Merger();
  Merger(const Merger&) = delete;
  Merger& operator=(const Merger&) = delete;

  // Reads `input` into the merge. `uri` names the source given to an input that has none (its
  // path; empty for stdin). Throws ProfError, naming the input, when it is not a readable
  // profile or its value types cannot be merged with those read before.
  void Add(Input& input, const std::string& uri);

  // Starts reading the file at `path` ("-": standard input) on a thread of its own; nothing is
  // merged until Add. Errors (a file that cannot be opened or read) are thrown by Add, in turn,
  // and the reader's warnings are shown then, so that messages come in the inputs' order.
  std::unique_ptr<PrefetchedInput> Prefetch(const std::string& path, const std::string& uri) const;
  // Merges a prefetched input, as Add(Input&) does.
  void Add(std::unique_ptr<PrefetchedInput> input);

  // Writes the merged profile to `sink`. Call once, after the inputs.
  void Finish(ProfileSink* sink);

  size_t input_count() const { return inputs_.size(); }
  bool aggregates() const { return options_.aggregate; }

 private:
  class InputSink;
  class SpoolingSink;

  // Reads one input through `read` (which delivers its records to the sink it is given), with
  // the rollback of a recoverable merge.
  void AddInput(const std::string& name, const char* const* source_type, const std::string& uri,
                const std::function<void(ProfileSink*)>& read);

  // Replays the spool: definitions to `definitions` (may be null), each sample converted to the
  // merged types to `on_sample(sample, label_set)` (the id of its labels' set in the spool),
  // and each run of samples that were only counted to `on_run(count)`. Without
  // `sample_values`, samples are passed over: on_sample is called for each with a sample and
  // label set that mean nothing.
  template <typename OnSample, typename OnRun>
  void Replay(const ProfileHeader& header, ProfileSink* definitions, bool sample_values,
              OnSample on_sample, OnRun on_run);
  // Called with each input's types, in turn (input `input`): sums as samples arrive while they
  // are the first's.
  void KeepSumming(size_t input, const std::vector<ValueType>& types);
  // Sums a sample of input `input` as it arrives (source and stack of the merged profile);
  // false when it was not summed (then the caller spools it).
  bool SumArriving(size_t input, uint64_t source, uint64_t stack, uint64_t label_set,
                   const std::vector<int64_t>& values);
  // Ends summing as samples arrive, in input `input`: the sums so far go to the spool as
  // samples of the first input's types, where the samples they sum were counted.
  void StopSumming(size_t input);
  // Whether every input's values go to the same column of the merged profile `header`
  // unconverted: then the sums made as samples arrived are the merge's.
  bool ValuesUnconverted(const ProfileHeader& header) const;

  MergeOptions options_;
  MergeSpool spool_;
  std::unique_ptr<SpoolingSink> spooling_;
  std::unique_ptr<Interner> interner_;  // freed by Finish
  // Aggregating: the sums so far, while every input has had the first's types (else null).
  std::unique_ptr<SampleAggregator> sums_;
  std::vector<ValueType> first_types_;
  HeaderMerger header_;
  std::vector<std::string> inputs_;  // names, for messages
  // The ids of the input being merged -> the merge's (InputSink's), kept from input to input.
  struct InputIds {
    IdMap sources, mappings, functions, locations, stacks;
    void Clear() {
      for (IdMap* map : {&sources, &mappings, &functions, &locations, &stacks}) map->Clear();
    }
  };
  InputIds input_ids_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGER_H_
