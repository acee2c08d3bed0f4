#include "common/folded/folded_table.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "common/base/decimal.h"
#include "common/base/saturating.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

template <typename T>
void AppendBytes(std::string* key, const T& value) {
  key->append(reinterpret_cast<const char*>(&value), sizeof value);
}

bool LabelLess(const Label& a, const Label& b) {
  if (a.key != b.key) return a.key < b.key;
  if (a.is_num != b.is_num) return a.is_num < b.is_num;
  if (a.str != b.str) return a.str < b.str;
  if (a.num != b.num) return a.num < b.num;
  return a.unit < b.unit;
}

}  // namespace

uint32_t FoldedTable::Function(std::string_view name, std::string_view file) {
  std::string key(name);
  key.push_back('\0');
  key.append(file);
  auto [it, added] = function_ids_.try_emplace(std::move(key), functions_.size());
  if (added) functions_.emplace_back(std::string(name), std::string(file));
  return it->second;
}

uint32_t FoldedTable::Location(CodeKind kind, const std::vector<LocalLine>& lines) {
  std::string key(1, static_cast<char>(kind));
  for (const LocalLine& line : lines) {
    AppendBytes(&key, line.function);
    AppendBytes(&key, line.line);
  }
  auto [it, added] = location_ids_.try_emplace(std::move(key), locations_.size());
  if (added) locations_.push_back(LocalLocation{kind, lines});
  return it->second;
}

uint32_t FoldedTable::Stack(const std::vector<uint32_t>& locations) {
  std::string key(reinterpret_cast<const char*>(locations.data()),
                  locations.size() * sizeof(uint32_t));
  auto [it, added] = stack_ids_.try_emplace(std::move(key), stacks_.size());
  if (added) stacks_.push_back(locations);
  return it->second;
}

uint32_t FoldedTable::Labels(const std::vector<Label>& labels) {
  std::string key;
  for (const Label& label : labels) {
    key += label.key;
    key.push_back('\0');
    key.push_back(label.is_num ? 'n' : 's');
    if (label.is_num) {
      AppendBytes(&key, label.num);
    } else {
      AppendBytes(&key, label.str.size());
      key += label.str;
    }
  }
  auto [it, added] = labels_ids_.try_emplace(std::move(key), labels_.size());
  if (added) labels_.push_back(labels);
  return it->second;
}

uint32_t FoldedTable::Entry(uint32_t source, uint32_t labels, uint32_t stack) {
  auto [it, added] = entry_ids_.try_emplace(EntryKey{source, labels, stack}, entries_.size());
  if (added) {
    entries_.push_back(EntryKey{source, labels, stack});
    sums_.resize(sums_.size() + value_count_, 0);
  }
  return it->second;
}

void FoldedTable::AddValue(uint32_t entry, int index, int64_t mantissa, int decimals) {
  if (decimals > scale_) {
    // A value with more decimal places than any before: every sum so far gets them too.
    const int64_t factor = PowerOfTen(decimals - scale_);
    for (int64_t& sum : sums_) saturated_ |= !MultiplySaturating(&sum, factor);
    scale_ = decimals;
  } else if (decimals < scale_) {
    saturated_ |= !MultiplySaturating(&mantissa, PowerOfTen(scale_ - decimals));
  }
  int64_t& sum = sums_[size_t{entry} * value_count_ + index];
  // Values are never negative: a sum can only overflow upwards.
  saturated_ |= mantissa > std::numeric_limits<int64_t>::max() - sum;
  AddSaturating(&sum, mantissa);
}

void FoldedTable::RankContent(std::vector<uint32_t>* location_rank,
                              std::vector<uint32_t>* labels_rank) const {
  std::vector<uint32_t> order(functions_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return functions_[a] < functions_[b]; });
  std::vector<uint32_t> function_rank(functions_.size());
  for (uint32_t i = 0; i < order.size(); ++i) function_rank[order[i]] = i;

  // Locations by their lines from the outermost, then by kind.
  order.resize(locations_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const LocalLocation& x = locations_[a];
    const LocalLocation& y = locations_[b];
    const auto key = [&](const LocalLine& line) {
      return std::make_pair(function_rank[line.function], line.line);
    };
    if (std::lexicographical_compare(
            x.lines.rbegin(), x.lines.rend(), y.lines.rbegin(), y.lines.rend(),
            [&](const LocalLine& p, const LocalLine& q) { return key(p) < key(q); })) {
      return true;
    }
    if (std::lexicographical_compare(
            y.lines.rbegin(), y.lines.rend(), x.lines.rbegin(), x.lines.rend(),
            [&](const LocalLine& p, const LocalLine& q) { return key(p) < key(q); })) {
      return false;
    }
    return x.kind < y.kind;
  });
  location_rank->assign(locations_.size(), 0);
  for (uint32_t i = 0; i < order.size(); ++i) (*location_rank)[order[i]] = i;

  order.resize(labels_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::lexicographical_compare(labels_[a].begin(), labels_[a].end(), labels_[b].begin(),
                                        labels_[b].end(), LabelLess);
  });
  labels_rank->assign(labels_.size(), 0);
  for (uint32_t i = 0; i < order.size(); ++i) (*labels_rank)[order[i]] = i;
}

void FoldedTable::Emit(const Conversion& conversion, ProfileSink* sink) {
  std::vector<uint32_t> location_rank, labels_rank;
  RankContent(&location_rank, &labels_rank);
  std::vector<uint32_t> order(entries_.size());
  std::iota(order.begin(), order.end(), 0);
  // By source, labels, then stack from the root: the order of content, not of lines.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const EntryKey& x = entries_[a];
    const EntryKey& y = entries_[b];
    if (x.source != y.source) return x.source < y.source;
    if (x.labels != y.labels) return labels_rank[x.labels] < labels_rank[y.labels];
    const std::vector<uint32_t>& s = stacks_[x.stack];
    const std::vector<uint32_t>& t = stacks_[y.stack];
    return std::lexicographical_compare(
        s.rbegin(), s.rend(), t.rbegin(), t.rend(),
        [&](uint32_t p, uint32_t q) { return location_rank[p] < location_rank[q]; });
  });

  Interner interner(sink);
  std::vector<uint64_t> function_ids(functions_.size(), 0);
  std::vector<uint64_t> location_ids(locations_.size(), 0);
  uint64_t mapping_ids[8] = {};
  const auto location_id = [&](uint32_t local) {
    uint64_t& id = location_ids[local];
    if (id != 0) return id;
    const LocalLocation& source = locations_[local];
    proftools::Location location;
    if (source.kind != CodeKind::kNative) {
      uint64_t& mapping = mapping_ids[static_cast<int>(source.kind)];
      if (mapping == 0) {
        proftools::Mapping m;
        m.file = std::string(MappingFileForKind(source.kind));
        m.has_functions = true;
        mapping = interner.Mapping(m);
      }
      location.mapping_id = mapping;
    }
    for (const LocalLine& line : source.lines) {
      uint64_t& function = function_ids[line.function];
      if (function == 0) {
        proftools::Function f;
        f.name = functions_[line.function].first;
        f.file = functions_[line.function].second;
        function = interner.Function(f);
      }
      location.lines.push_back(proftools::Line{function, line.line, 0});
    }
    id = interner.Location(location);
    return id;
  };

  std::vector<uint64_t> stack;
  Sample sample;
  for (uint32_t index : order) {
    const EntryKey& key = entries_[index];
    stack.clear();
    for (uint32_t local : stacks_[key.stack]) stack.push_back(location_id(local));
    sample.source_id = key.source + 1;
    sample.stack_id = interner.Stack(stack);
    sample.labels = labels_[key.labels];
    sample.values.assign(sums_.begin() + size_t{index} * value_count_,
                         sums_.begin() + size_t{index + 1} * value_count_);
    for (int64_t& value : sample.values) {
      if (conversion.multiply != 1) MultiplySaturating(&value, conversion.multiply);
      if (conversion.divide != 1) {
        // Half up (values are not negative).
        value = value / conversion.divide + (value % conversion.divide * 2 >= conversion.divide);
      }
    }
    sink->OnSample(sample);
  }
  sink->OnEnd();
}

}  // namespace proftools
