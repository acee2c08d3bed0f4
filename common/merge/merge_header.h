// The preamble of a merged profile (formats/prof-text.md §5.1): how the preambles of the inputs
// combine. Every rule is a commutative, associative fold (a minimum, a maximum, a union, a span)
// or "kept when every input agrees, else sorted", so that merging as a tree gives the same bytes
// as merging all inputs at once.
#ifndef PROFTOOLS_COMMON_MERGE_MERGE_HEADER_H_
#define PROFTOOLS_COMMON_MERGE_MERGE_HEADER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/model.h"
#include "common/model/source_meta.h"

namespace proftools {

// A list that stays as it is while every input has the same one, and becomes the sorted set of
// distinct elements once two inputs differ (types, comments).
class AgreedList {
 public:
  void Add(const std::vector<std::string>& list);
  std::vector<std::string> Result() const;

 private:
  bool any_ = false;
  bool all_equal_ = true;
  std::vector<std::string> first_;
  std::set<std::string> all_;
};

class HeaderMerger {
 public:
  // Where one input's columns go in the merged samples.
  struct Column {
    size_t index = 0;    // output type index
    int64_t factor = 1;  // multiply the input's value by this (unit conversion)
  };

  // Checks that the value types of input `name` can be merged with those added so far; throws
  // ProfError naming both inputs when a type has units that cannot be converted.
  void CheckTypes(const ProfileHeader& header, const std::string& name) const;

  // Adds the preamble of an input (checked first). `format` and `uri` describe the source an
  // input without any gets. Returns the output source number (1-based, before --drop-sources)
  // of each of the input's sources, in the order of header.sources (of the one made up when it
  // has none).
  std::vector<uint64_t> Add(const ProfileHeader& header, const std::string& name,
                            const std::string& format, const std::string& uri);

  // The merged preamble. With `drop_sources`, one source `prof-merge` stands for all.
  ProfileHeader Result(bool drop_sources) const;

  // For each type of input `input` (in the order it declared them), where its values go in the
  // profile `result` returned by Result().
  std::vector<Column> Columns(size_t input, const ProfileHeader& result) const;

  size_t input_count() const { return input_types_.size(); }

  // When the inputs' default types differ (a perf cpu-clock profile and a Go cpu profile): a
  // sentence naming each input's default and the one the merge chose, for a warning, since the
  // reports then open on one input's data. Empty when they agree.
  std::string DefaultTypeDisagreement() const;

 private:
  struct TypeInfo {
    std::string unit;        // the unit merged values are in so far
    std::string first_unit;  // as declared by `first_input`, for messages
    std::string first_input;
  };

  std::map<std::string, TypeInfo> types_;
  AgreedList type_names_;
  AgreedList comments_;
  std::vector<std::vector<ValueType>> input_types_;
  std::optional<std::string> default_type_;            // the smallest of the inputs' defaults
  std::map<std::string, std::string> input_defaults_;  // default type -> the first input with it
  SourceMetaTable meta_;  // per source, as formats/prof-text.md §4.2's KEY@ID
  std::optional<int64_t> time_;
  bool span_known_ = true;  // every input so far had a time and a duration
  int64_t span_end_ = 0;
  Period period_;
  std::string doc_url_, drop_frames_, keep_frames_;
  std::vector<Source> sources_;
  std::unordered_map<std::string, size_t> source_index_;  // content key -> index in sources_
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MERGE_MERGE_HEADER_H_
