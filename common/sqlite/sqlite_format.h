// How a SQLite database file starts.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

inline constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);

// Whether `head` (a file's first bytes) starts like a SQLite database.
inline bool IsSqliteHeader(std::string_view head) {
  return head.substr(0, kSqliteMagic.size()) == kSqliteMagic;
}

inline int SniffSqlite(std::string_view head, bool) {
  return IsSqliteHeader(head) ? kCertain : kNotMine;
}

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_
