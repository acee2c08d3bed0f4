// The database layout of prof2sqlite and sqlite2prof (man prof2sqlite, "THE DATABASE"): the
// relational model of the R profile package's v2 plan (meta, sources, samples, sample_values in
// long form, sample_locations, locations, functions), plus the tables for what prof text holds
// beyond it, and views for the usual questions.
#ifndef PROFTOOLS_COMMON_SQLITE_SQLITE_SCHEMA_H_
#define PROFTOOLS_COMMON_SQLITE_SQLITE_SCHEMA_H_

namespace proftools {

// The `meta` row `schema_version`: raised whenever the layout changes in a way an older reader
// could misread; sqlite2prof refuses a database whose version is newer.
inline constexpr int kSqliteSchemaVersion = 1;
// The `meta` row `version`: the R profile package's data model version this layout follows.
inline constexpr const char* kProfileModelVersion = "2.0";

// The tables, in an order where every foreign key points to an earlier table.
extern const char* const kSqliteTables;
// The views (derived: a database stays readable when they are dropped or materialised).
extern const char* const kSqliteViews;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_SQLITE_SCHEMA_H_
