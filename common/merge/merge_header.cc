#include "common/merge/merge_header.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/base/units.h"

namespace proftools {
namespace {

// The smaller of two optional strings, where empty means absent.
void KeepSmallest(std::string* kept, const std::string& value) {
  if (!value.empty() && (kept->empty() || value < *kept)) *kept = value;
}

// Of two periods, the one the merged profile keeps: the larger sampling period of the same type
// (converted to the finer unit), as pprof's merge does; periods of different types order by
// (type, unit, value) so that the choice is still a maximum, hence associative.
Period LargerPeriod(const Period& a, const Period& b) {
  if (!a.IsSet()) return b;
  if (!b.IsSet()) return a;
  if (a.type.type == b.type.type && UnitsConvertible(a.type.unit, b.type.unit)) {
    const std::string unit = FinerUnit(a.type.unit, b.type.unit);
    // Saturating: a period too large to express in the finer unit stays the largest.
    auto in_unit = [&](const Period& p) {
      const int64_t factor = ConversionFactor(p.type.unit, unit);
      int64_t value;
      if (__builtin_mul_overflow(p.value, factor, &value)) {
        value =
            p.value < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
      }
      return value;
    };
    return Period{{a.type.type, unit}, std::max(in_unit(a), in_unit(b))};
  }
  auto key = [](const Period& p) { return std::tie(p.type.type, p.type.unit, p.value); };
  return key(a) < key(b) ? b : a;
}

std::string SourceKey(const Source& source) {
  std::string key = source.type;
  key.push_back('\0');
  key += source.uri;
  key.push_back('\0');
  key += source.time_nanos ? std::to_string(*source.time_nanos) : "-";
  return key;
}

}  // namespace

void AgreedList::Add(const std::vector<std::string>& list) {
  if (!any_) {
    first_ = list;
    any_ = true;
  } else if (list != first_) {
    all_equal_ = false;
  }
  all_.insert(list.begin(), list.end());
}

std::vector<std::string> AgreedList::Result() const {
  if (all_equal_) return first_;
  return std::vector<std::string>(all_.begin(), all_.end());
}

void HeaderMerger::CheckTypes(const ProfileHeader& header, const std::string& name) const {
  for (const ValueType& type : header.types) {
    auto it = types_.find(type.type);
    if (it == types_.end() || UnitsConvertible(it->second.unit, type.unit)) continue;
    throw ProfError(name, "value type " + Printable(type.type) + " is in unit " +
                              Printable(type.unit) + ", but " + it->second.first_input +
                              " has it in " + Printable(it->second.first_unit) +
                              "; these units cannot be converted (rename one of the types, or "
                              "merge them separately)");
  }
}

std::vector<uint64_t> HeaderMerger::Add(const ProfileHeader& header, const std::string& name,
                                        const std::string& format, const std::string& uri) {
  CheckTypes(header, name);
  std::vector<std::string> names;
  for (const ValueType& type : header.types) {
    names.push_back(type.type);
    auto inserted = types_.emplace(type.type, TypeInfo{type.unit, type.unit, name});
    if (!inserted.second) {
      TypeInfo& info = inserted.first->second;
      info.unit = FinerUnit(info.unit, type.unit);
    }
  }
  type_names_.Add(names);
  comments_.Add(header.comments);
  input_types_.push_back(header.types);

  // An input's default: its default_type, else its last type (§4.2).
  std::string input_default = header.default_type;
  if (input_default.empty() && !header.types.empty()) input_default = header.types.back().type;
  if (!input_default.empty() && (!default_type_ || input_default < *default_type_)) {
    default_type_ = input_default;
  }
  if (!input_default.empty()) input_defaults_.emplace(input_default, name);

  // time: the earliest; duration: from the earliest start to the latest end, known only when
  // every input says when it started and how long it covered.
  const bool first_input = input_types_.size() == 1;
  if (header.time_nanos && (!time_ || *header.time_nanos < *time_)) time_ = header.time_nanos;
  if (header.time_nanos && header.duration_nanos) {
    int64_t end;
    if (__builtin_add_overflow(*header.time_nanos, *header.duration_nanos, &end)) {
      end = std::numeric_limits<int64_t>::max();
    }
    span_end_ = first_input ? end : std::max(span_end_, end);
  } else {
    span_known_ = false;
  }

  period_ = LargerPeriod(period_, header.period);
  KeepSmallest(&doc_url_, header.doc_url);
  KeepSmallest(&drop_frames_, header.drop_frames);
  KeepSmallest(&keep_frames_, header.keep_frames);

  // Sources: identical sources (same type, URI and time) are one source, numbered in order of
  // first appearance.
  std::vector<Source> sources = header.sources;
  if (sources.empty()) sources.push_back(Source{0, format, uri, std::nullopt});
  std::vector<uint64_t> numbers;
  for (const Source& source : sources) {
    auto inserted = source_index_.emplace(SourceKey(source), sources_.size());
    if (inserted.second) sources_.push_back(source);
    numbers.push_back(inserted.first->second + 1);
  }
  meta_.AddHeader(header, numbers);
  return numbers;
}

ProfileHeader HeaderMerger::Result(bool drop_sources) const {
  ProfileHeader h;
  h.meta = meta_.Entries(sources_.size(), drop_sources);
  h.comments = comments_.Result();
  h.time_nanos = time_;
  if (span_known_ && time_ && !input_types_.empty()) h.duration_nanos = span_end_ - *time_;
  h.period = period_;
  h.doc_url = doc_url_;
  h.drop_frames = drop_frames_;
  h.keep_frames = keep_frames_;
  if (drop_sources) {
    h.sources.push_back(Source{1, "prof-merge", "", std::nullopt});
  } else {
    for (size_t i = 0; i < sources_.size(); ++i) {
      h.sources.push_back(sources_[i]);
      h.sources.back().id = i + 1;
    }
  }
  for (const std::string& name : type_names_.Result()) {
    h.types.push_back({name, types_.at(name).unit});
  }
  // Written only when it is not already the default (the last type), so that an input's
  // implicit default stays implicit.
  if (default_type_ && !h.types.empty() && h.types.back().type != *default_type_) {
    h.default_type = *default_type_;
  }
  return h;
}

std::string HeaderMerger::DefaultTypeDisagreement() const {
  if (input_defaults_.size() < 2) return "";
  std::string inputs;
  for (const auto& [type, input] : input_defaults_) {
    inputs += (inputs.empty() ? "" : ", ") + Printable(type) + " in " + Printable(input);
  }
  return "the inputs' default types differ: " + inputs + "; the merged profile's default is " +
         Printable(*default_type_) + " (the bytewise smallest), see the others with --value TYPE";
}

std::vector<HeaderMerger::Column> HeaderMerger::Columns(size_t input,
                                                        const ProfileHeader& result) const {
  std::vector<Column> columns;
  for (const ValueType& type : input_types_[input]) {
    const int index = result.TypeIndex(type.type);
    const ValueType& merged = result.types[index];
    columns.push_back({static_cast<size_t>(index), ConversionFactor(type.unit, merged.unit)});
  }
  return columns;
}

}  // namespace proftools
