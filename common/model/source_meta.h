// Meta that differs by source (formats/prof-text.md §4.2): `meta KEY@ID VALUE` is KEY's value for
// the samples of source ID; a plain `meta KEY VALUE` is the value for every source that has no
// KEY@ID of its own. prof-merge keeps each input's meta this way (the filter each input went
// through, the host each perf recording ran on) instead of one value for all.
#ifndef PROFTOOLS_COMMON_MODEL_SOURCE_META_H_
#define PROFTOOLS_COMMON_MODEL_SOURCE_META_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/model/model.h"

namespace proftools {

// "KEY@ID" for a source id; the key itself for 0.
std::string SourceMetaKey(std::string_view key, uint64_t source_id);

// Splits `key` into KEY and ID when it ends in "@ID" and ID (decimal, no leading zero) is one of
// `source_ids`; otherwise the whole key and 0 (a key that only looks per-source is plain).
std::pair<std::string, uint64_t> SplitSourceMetaKey(const std::string& key,
                                                    const std::vector<uint64_t>& source_ids);

// Meta values by key and source number (1..source_count). Set keeps the bytewise smallest of
// values given for the same key and source, so that adding inputs in any grouping gives the
// same table.
class SourceMetaTable {
 public:
  void Set(const std::string& key, uint64_t source, const std::string& value);

  // Adds a profile's meta whose sources are numbered `numbers` here (the i-th of
  // header.sources is numbers[i]; a header without sources stands for numbers[0]).
  void AddHeader(const ProfileHeader& header, const std::vector<uint64_t>& numbers);

  // The entries for sources 1..source_count: a plain `KEY VALUE` when every source has the
  // same value, else `KEY@N VALUE` for each source N that has one. With `one_source` (the
  // sources became one), each key's smallest value, plain.
  std::vector<MetaEntry> Entries(uint64_t source_count, bool one_source) const;

 private:
  std::map<std::string, std::map<uint64_t, std::string>> values_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_SOURCE_META_H_
