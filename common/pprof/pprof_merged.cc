#include "common/pprof/pprof_merged.h"

#include <map>
#include <set>
#include <utility>

#include "common/base/text_syntax.h"

namespace proftools {

std::vector<std::string> CollapsePprofMergedRecords(ProfileHeader* header) {
  std::vector<std::string> warnings;

  // Sources by id, in order of first appearance.
  std::vector<Source> sources;
  std::map<uint64_t, std::vector<Source>> by_id;
  for (Source& source : header->sources) {
    std::vector<Source>& same = by_id[source.id];
    if (same.empty()) sources.push_back(source);
    same.push_back(std::move(source));
  }
  std::string collapsed;
  for (Source& source : sources) {
    const std::vector<Source>& same = by_id[source.id];
    if (same.size() < 2) continue;
    std::string names;
    for (const Source& s : same) {
      if (s.type != source.type) source.type = "pprof";
      if (s.uri != source.uri) source.uri.clear();
      if (s.time_nanos && (!source.time_nanos || *s.time_nanos < *source.time_nanos)) {
        source.time_nanos = s.time_nanos;
      }
      names += (names.empty() ? "" : ", ") + s.type + " " + Printable(s.uri, 200);
    }
    header->comments.push_back("pprof merged these profiles into source " +
                               std::to_string(source.id) + ": " + names);
    collapsed += (collapsed.empty() ? "" : "; ") + std::to_string(same.size()) +
                 " profiles' source " + std::to_string(source.id) + " (" + names + ")";
  }
  if (!collapsed.empty()) {
    warnings.push_back(
        "pprof merged profiles that prof2pprof wrote, and their samples no longer say which "
        "profile they came from: one source stands for " +
        collapsed + " (merge with prof-merge to keep each profile's source)");
  }
  header->sources = std::move(sources);

  // Meta: one value per key, the smallest (formats/prof-text.md §5.1).
  std::vector<MetaEntry> meta;
  std::map<std::string, size_t> index;
  std::set<std::string> repeated;  // keys given several values, named once each
  for (MetaEntry& entry : header->meta) {
    auto inserted = index.emplace(entry.key, meta.size());
    if (inserted.second) {
      meta.push_back(std::move(entry));
      continue;
    }
    MetaEntry& kept = meta[inserted.first->second];
    if (entry.value == kept.value) continue;
    repeated.insert(entry.key);
    if (entry.value < kept.value) kept.value = std::move(entry.value);
  }
  if (!repeated.empty()) {
    std::string keys;
    for (const std::string& key : repeated) keys += (keys.empty() ? "" : ", ") + Printable(key);
    warnings.push_back("pprof merged profiles with other values of meta " + keys +
                       ": each keeps its bytewise smallest value");
  }
  header->meta = std::move(meta);
  return warnings;
}

}  // namespace proftools
