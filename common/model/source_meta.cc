#include "common/model/source_meta.h"

#include <algorithm>

namespace proftools {

std::string SourceMetaKey(std::string_view key, uint64_t source_id) {
  std::string out(key);
  if (source_id != 0) out += "@" + std::to_string(source_id);
  return out;
}

std::pair<std::string, uint64_t> SplitSourceMetaKey(const std::string& key,
                                                    const std::vector<uint64_t>& source_ids) {
  const size_t at = key.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == key.size() || key[at + 1] == '0' ||
      key.size() - at - 1 > 19) {
    return {key, 0};
  }
  uint64_t id = 0;
  for (size_t i = at + 1; i < key.size(); ++i) {
    if (key[i] < '0' || key[i] > '9') return {key, 0};
    id = id * 10 + static_cast<uint64_t>(key[i] - '0');
  }
  if (std::find(source_ids.begin(), source_ids.end(), id) == source_ids.end()) return {key, 0};
  return {key.substr(0, at), id};
}

void SourceMetaTable::Set(const std::string& key, uint64_t source, const std::string& value) {
  auto inserted = values_[key].emplace(source, value);
  if (!inserted.second && value < inserted.first->second) inserted.first->second = value;
}

void SourceMetaTable::AddHeader(const ProfileHeader& header, const std::vector<uint64_t>& numbers) {
  std::vector<uint64_t> ids;
  for (const Source& source : header.sources) ids.push_back(source.id);
  // KEY@ID first, so that the plain KEY fills only the sources without one.
  std::map<std::string, std::map<uint64_t, std::string>> own;
  std::map<std::string, const std::string*> plain;
  for (const MetaEntry& entry : header.meta) {
    auto [key, id] = SplitSourceMetaKey(entry.key, ids);
    if (id == 0) {
      plain[key] = &entry.value;
      continue;
    }
    const size_t index = std::find(ids.begin(), ids.end(), id) - ids.begin();
    own[key][numbers[index]] = entry.value;
  }
  for (const auto& [key, value] : plain) {
    std::map<uint64_t, std::string>& sources = own[key];
    for (uint64_t number : numbers) sources.emplace(number, *value);
  }
  for (const auto& [key, sources] : own) {
    for (const auto& [number, value] : sources) Set(key, number, value);
  }
}

std::vector<MetaEntry> SourceMetaTable::Entries(uint64_t source_count, bool one_source) const {
  std::vector<MetaEntry> entries;
  for (const auto& [key, sources] : values_) {
    const std::string* smallest = nullptr;
    bool all_equal = true;
    for (const auto& [number, value] : sources) {
      if (smallest != nullptr && value != *smallest) all_equal = false;
      if (smallest == nullptr || value < *smallest) smallest = &value;
    }
    if (one_source || (all_equal && sources.size() == source_count)) {
      entries.push_back({key, *smallest});
      continue;
    }
    for (const auto& [number, value] : sources) {
      entries.push_back({SourceMetaKey(key, number), value});
    }
  }
  return entries;
}

}  // namespace proftools
