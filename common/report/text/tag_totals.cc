#include "common/report/text/tag_totals.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "common/base/saturating.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"

namespace proftools {

void TagTotals::OnHeader(const ProfileHeader& header) {
  header_ = header;
  value_index_ = ResolveValueIndex(header, value_name_);
  source_names_.clear();
  if (header.sources.size() < 2) return;  // one source says nothing about the samples
  for (const Source& source : header.sources) {
    TagValue name;
    name.str = source.uri.empty() ? source.type : source.uri;
    source_names_[source.id] = name;
  }
}

void TagTotals::OnSample(const Sample& sample) {
  const int64_t value = sample.values[static_cast<size_t>(value_index_)];
  TagValue key;
  for (const Label& label : sample.labels) {
    key.is_num = label.is_num;
    key.str = label.is_num ? std::string() : label.str;
    key.num = label.is_num ? label.num : 0;
    key.unit = label.is_num ? label.unit : std::string();
    AddSaturating(&sums_[label.key][key], value);
  }
  auto source = source_names_.find(sample.source_id);
  if (source != source_names_.end()) AddSaturating(&sums_[kSourceTagKey][source->second], value);
}

namespace {

struct TagRow {
  std::string name;
  int64_t value;
};

}  // namespace

void WriteTagsReport(const TagTotals& tags, bool raw_values, double min_percent, ByteSink* out) {
  const ValueType& type = tags.header().types[static_cast<size_t>(tags.value_index())];
  std::string text = TypeLine(type);
  if (tags.sums().empty()) text += "No sample has a label.\n";
  // Keys only samples worth 0 of this type carry (perf2prof --off-cpu's `state` in the switch
  // count) would be a table of zeros: they are named once at the end instead.
  std::string all_zero;
  size_t all_zero_count = 0;
  for (const auto& [key, values] : tags.sums()) {
    if (std::all_of(values.begin(), values.end(),
                    [](const auto& value) { return value.second == 0; })) {
      all_zero += (all_zero.empty() ? "" : ", ") + DisplayFrameName(key);
      ++all_zero_count;
      continue;
    }
    std::vector<TagRow> rows;
    int64_t total = 0;
    for (const auto& [tag, sum] : values) {
      std::string name =
          tag.is_num ? FormatValue(tag.num, tag.unit, raw_values) : DisplayFrameName(tag.str);
      if (tag.is_num && raw_values && !tag.unit.empty()) name += " " + DisplayFrameName(tag.unit);
      rows.push_back({name, sum});
      AddSaturating(&total, sum);
    }
    // --min-percent: values worth less than P% of the key's total are left out.
    const double threshold = std::fabs(static_cast<double>(total)) * min_percent / 100.0;
    const size_t before = rows.size();
    rows.erase(std::remove_if(rows.begin(), rows.end(),
                              [&](const TagRow& r) {
                                return static_cast<double>(Magnitude(r.value)) < threshold;
                              }),
               rows.end());
    const size_t left_out = before - rows.size();
    std::stable_sort(rows.begin(), rows.end(), [](const TagRow& a, const TagRow& b) {
      if (Magnitude(a.value) != Magnitude(b.value)) return Magnitude(a.value) > Magnitude(b.value);
      return a.name < b.name;
    });
    size_t width = 0;
    std::vector<std::string> shown;
    for (const TagRow& row : rows) {
      shown.push_back(FormatValue(row.value, type.unit, raw_values));
      width = std::max(width, shown.back().size());
    }
    text += "\n" + DisplayFrameName(key) + ": Total " + FormatValue(total, type.unit, raw_values) +
            "\n";
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string percent = FormatPercent(rows[i].value, total);
      text += "  " + std::string(width - shown[i].size(), ' ') + shown[i] + " " +
              std::string(percent.size() < 8 ? 8 - percent.size() : 0, ' ') + percent + "  " +
              rows[i].name + "\n";
    }
    if (left_out > 0) {
      text += "  (" + std::to_string(left_out) + (left_out == 1 ? " value" : " values") +
              " below the --min-percent threshold left out)\n";
    }
  }
  if (all_zero_count > 0) {
    text += "\n" + std::string(all_zero_count == 1 ? "Label key" : "Label keys") +
            " only on samples worth 0 of " + DisplayFrameName(type.type) + ": " + all_zero + "\n";
  }
  out->Write(text);
}

}  // namespace proftools
