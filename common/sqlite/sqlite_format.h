// How a SQLite database file starts, and the registry's entry for it. Header-only, so that the
// main library recognises databases without linking SQLite: the programs that read them are
// sqlite2prof and prof2sqlite --append, so the others name them and say which program reads them.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_

#include <string_view>

#include "common/base/diagnostics.h"
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

[[noreturn]] inline void RefuseSqliteHere(Input& input, const ReadContext&, ProfileSink*) {
  throw ProfError(input.name,
                  "is a SQLite database: read it with sqlite2prof (sqlite2prof DB | prof-text)");
}

inline const ReaderSpec kSqliteHintReader{"sqlite",
                                          "a SQLite database",
                                          ReaderShape::kWholeInput,
                                          "sqlite2prof",
                                          SniffSqlite,
                                          RefuseSqliteHere,
                                          /*checks_itself=*/true,
                                          /*only_advises=*/true};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_FORMAT_H_
