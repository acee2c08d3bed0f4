// --tags (pprof's -tags): for each label key, the value of the samples by label value. Labels
// are per sample, so this sink sums them as samples stream past; memory grows with distinct
// label values, not with samples.
#ifndef PROFTOOLS_COMMON_REPORT_TEXT_TAG_TOTALS_H_
#define PROFTOOLS_COMMON_REPORT_TEXT_TAG_TOTALS_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "common/io/byte_stream.h"
#include "common/model/sink.h"

namespace proftools {

class TagTotals : public DiscardingSink {
 public:
  // `value` names the value type to sum ("" for the default, see ResolveValueIndex).
  explicit TagTotals(std::string value) : value_name_(std::move(value)) {}

  void OnHeader(const ProfileHeader& header) override;
  void OnSample(const Sample& sample) override;

  // A label's value: a string, or a number with its unit. Numbers are kept exact (pprof groups
  // them by their rounded display, "1MB").
  struct TagValue {
    bool is_num = false;
    std::string str;
    int64_t num = 0;
    std::string unit;
    bool operator<(const TagValue& o) const {
      return std::tie(is_num, str, num, unit) < std::tie(o.is_num, o.str, o.num, o.unit);
    }
  };
  const ProfileHeader& header() const { return header_; }
  int value_index() const { return value_index_; }
  // key -> label value -> sum of the samples' values (a sample counts once per label it has).
  const std::map<std::string, std::map<TagValue, int64_t>>& sums() const { return sums_; }

 private:
  std::string value_name_;
  ProfileHeader header_;
  int value_index_ = 0;
  std::map<std::string, std::map<TagValue, int64_t>> sums_;
  // With several sources, each source's name (its URI, else its type) by id: a merged profile's
  // samples are listed by where they came from, under kSourceTagKey.
  std::unordered_map<uint64_t, TagValue> source_names_;
};

// The key --tags lists the sources under: the label prof2pprof gives them (pprof -tags shows
// it as numbers; here the sources' names).
inline constexpr const char* kSourceTagKey = "proftools.source";

// Writes the report: keys by name; under each, "KEY: Total T" and one row per label value,
// largest magnitude first (ties by name), with its percentage of the key's total, as pprof
// -tags orders them.
// `min_percent`: values worth less than that share of their key's total are left out (0: none).
void WriteTagsReport(const TagTotals& tags, bool raw_values, double min_percent, ByteSink* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_TEXT_TAG_TOTALS_H_
