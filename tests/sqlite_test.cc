// prof2sqlite's and sqlite2prof's codec: a profile written to a database and read back is the
// same canonical text (property over random profiles); the views compute what the profile says;
// a database edited by SQL is read when it keeps the model's constraints and refused naming the
// table, row and constraint when it does not.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/model/checker.h"
#include "common/sqlite/database_file.h"
#include "common/sqlite/sqlite_db.h"
#include "common/sqlite/sqlite_reader.h"
#include "common/sqlite/sqlite_writer.h"
#include "common/sqlite/temporary_database.h"
#include "common/text/text_writer.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace sqlite_test {  // a namespace of its own: the tests build as one unit
namespace {

void Write(const Profile& profile, const std::string& path) {
  SqliteDb db(path, "test.db", SqliteDb::Mode::kCreate);
  SqliteWriter writer(&db);
  EmitProfile(profile, writer);
}

// Runs SQL on an existing database (foreign keys enforced, as a careful user would).
void Edit(const std::string& path, const std::string& sql) {
  SqliteDb db(path, "test.db", SqliteDb::Mode::kCreate);
  db.Exec("PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY; PRAGMA foreign_keys = ON;" +
          sql);
}

std::string ReadBack(const std::string& path) {
  DatabaseFile file(path, 0);
  ProfileBuilder builder;
  DiagnosticHandler refuse;
  CheckingSink checked(&builder, &refuse, "test.db");
  ReadDatabase(file.Open().get(), &checked);
  return ToCanonicalText(builder.Take());
}

// The message ReadBack fails with ("" when it does not fail).
std::string Refusal(const std::string& path) {
  try {
    ReadBack(path);
  } catch (const ProfError& e) {
    return e.diagnostic().message;
  }
  return "";
}

TEST(SqliteProperty, RandomProfilesComeBackAsTheSameCanonicalText) {
  testing::RandomProfileGenerator generator(20261124);
  for (int round = 0; round < 300; ++round) {
    const Profile original = generator.Next();
    const std::string text = ToCanonicalText(original);
    TemporaryDatabase db;
    Write(original, db.path());
    ASSERT_EQ(ReadBack(db.path()), text) << "round " << round;
  }
}

TEST(SqliteProperty, ForeignKeysHoldInEveryDatabaseWritten) {
  testing::RandomProfileGenerator generator(5);
  for (int round = 0; round < 50; ++round) {
    TemporaryDatabase path;
    Write(generator.Next(), path.path());
    SqliteDb db(path.path(), "test.db", SqliteDb::Mode::kCreate);
    SqliteStatement check(&db, "PRAGMA foreign_key_check");
    ASSERT_FALSE(check.Step()) << "round " << round << ": table " << check.Text(0);
    SqliteStatement integrity(&db, "PRAGMA integrity_check");
    ASSERT_TRUE(integrity.Step());
    ASSERT_EQ(integrity.Text(0), "ok");
  }
}

const char* const kProfile =
    "proftext 1.0\n"
    "source 1 manual a -\n"
    "source 2 manual b 1000000000\n"
    "type samples count\n"
    "type cpu nanoseconds\n"
    "function 1 leaf \"\" x.c 0\n"
    "function 2 inlined \"\" x.c 0\n"
    "function 3 main \"\" x.c 0\n"
    "function 4 leaf \"\" y.c 0\n"  // the name of function 1, in another file: one row
    "location 1 - 0x10 - 1:5\n"
    "location 2 - 0x20 - 2:7 3:9\n"
    "location 3 - 0x30 -\n"
    "location 4 - 0x40 - 4:3\n"
    "stack 1 1 2\n"
    "stack 2 2\n"
    "stack 3 3 1 2 2\n"
    "stack 4\n"
    "stack 5 4 1 2\n"
    "sample 1 1 1000000000 - 1 10 tid=1\n"
    "sample 1 2 1500000000 - 1 20\n"
    "sample 2 3 3200000000 - 1 40 tid=2 comm=x\n"
    "sample 2 1 3900000000 - 1 80\n"
    "sample 1 4 - - 1 160\n"
    "sample 1 5 4000000000 - 1 320\n";

// Self and cumulative value of type `type` per function name, from the profile itself.
std::map<std::string, std::pair<int64_t, int64_t>> Expected(const Profile& p, size_t type) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  for (const Sample& s : p.samples) {
    const Stack& stack = *p.defs.stacks.Find(s.stack_id);
    std::set<std::string> seen;
    for (size_t i = 0; i < stack.location_ids.size(); ++i) {
      const Location& l = *p.defs.locations.Find(stack.location_ids[i]);
      for (size_t k = 0; k < l.lines.size(); ++k) {
        const std::string& name = p.defs.functions.Find(l.lines[k].function_id)->name;
        if (i == 0 && k == 0) out[name].first += s.values[type];
        if (seen.insert(name).second) out[name].second += s.values[type];
      }
    }
  }
  return out;
}

TEST(SqliteViews, TopSelfAndCumulativeAgreeWithTheProfile) {
  const Profile profile = testing::Parse(kProfile);
  TemporaryDatabase path;
  Write(profile, path.path());
  SqliteDb db(path.path(), "test.db", SqliteDb::Mode::kCreate);
  for (size_t type = 0; type < profile.header.types.size(); ++type) {
    std::map<std::string, std::pair<int64_t, int64_t>> got;
    SqliteStatement self(&db, "SELECT name, self FROM top_self WHERE type = ?");
    self.BindText(1, profile.header.types[type].type);
    while (self.Step()) got[self.Text(0)].first = self.Int(1);
    SqliteStatement cumulative(&db, "SELECT name, cumulative FROM top_cumulative WHERE type = ?");
    cumulative.BindText(1, profile.header.types[type].type);
    while (cumulative.Step()) got[cumulative.Text(0)].second = cumulative.Int(1);
    EXPECT_EQ(got, Expected(profile, type)) << profile.header.types[type].type;
  }
}

TEST(SqliteViews, SampleLocationsIsTheSeedsBridgeTable) {
  const Profile profile = testing::Parse(kProfile);
  TemporaryDatabase path;
  Write(profile, path.path());
  SqliteDb db(path.path(), "test.db", SqliteDb::Mode::kCreate);
  SqliteStatement rows(&db,
                       "SELECT sample_id, depth, location_id FROM sample_locations "
                       "ORDER BY sample_id, depth");
  // Sample ids and location ids are numbered in order of appearance, as in the profile.
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    const Stack& stack = *profile.defs.stacks.Find(profile.samples[i].stack_id);
    for (size_t depth = 0; depth < stack.location_ids.size(); ++depth) {
      ASSERT_TRUE(rows.Step());
      EXPECT_EQ(rows.Int(0), static_cast<int64_t>(i + 1));
      EXPECT_EQ(rows.Int(1), static_cast<int64_t>(depth + 1));
      EXPECT_EQ(rows.Int(2), static_cast<int64_t>(stack.location_ids[depth]));
    }
  }
  EXPECT_FALSE(rows.Step());
}

// The seed's sources table (background document, v2) has source_id, source_type, source_uri and
// source_timestamp (seconds); R code and any introspection (PRAGMA table_info, which hides
// generated columns) must find them as stored columns, in that order; the exact time follows.
TEST(SqliteSchema, SourcesHasTheSeedsColumnsFirst) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  SqliteDb db(path.path(), "test.db", SqliteDb::Mode::kCreate);
  SqliteStatement columns(&db, "SELECT name FROM pragma_table_info('sources') ORDER BY cid");
  std::vector<std::string> names;
  while (columns.Step()) names.push_back(columns.Text(0));
  EXPECT_EQ(names, (std::vector<std::string>{"source_id", "source_type", "source_uri",
                                             "source_timestamp", "source_time_nanos"}));
}

// A database whose sources have only the seed's seconds (written by R, say) keeps their time.
TEST(SqliteEdits, SourceTimestampAloneGivesTheTime) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  Edit(path.path(),
       "UPDATE sources SET source_time_nanos = NULL, source_timestamp = 1700000000.25;");
  EXPECT_NE(ReadBack(path.path()).find("1700000000250000000"), std::string::npos)
      << ReadBack(path.path());
}

TEST(SqliteViews, TimeBucketsSumEachSourcesSecondsFromItsFirstSample) {
  const Profile profile = testing::Parse(kProfile);
  TemporaryDatabase path;
  Write(profile, path.path());
  SqliteDb db(path.path(), "test.db", SqliteDb::Mode::kCreate);
  std::map<std::pair<int64_t, int64_t>, int64_t> expected;
  std::map<uint64_t, int64_t> first;
  for (const Sample& s : profile.samples) {
    if (!s.time_nanos) continue;
    auto [it, added] = first.emplace(s.source_id, *s.time_nanos);
    if (!added) it->second = std::min(it->second, *s.time_nanos);
  }
  for (const Sample& s : profile.samples) {
    if (!s.time_nanos) continue;
    const int64_t bucket = (*s.time_nanos - first[s.source_id]) / 1000000000;
    expected[{static_cast<int64_t>(s.source_id), bucket}] += s.values[1];
  }
  std::map<std::pair<int64_t, int64_t>, int64_t> got;
  SqliteStatement rows(&db, "SELECT source_id, bucket, value FROM time_buckets WHERE type='cpu'");
  while (rows.Step()) got[{rows.Int(0), rows.Int(1)}] = rows.Int(2);
  EXPECT_EQ(got, expected);
}

TEST(SqliteEdits, DeletingSamplesBySqlGivesTheProfileWithoutThem) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  Edit(path.path(), "DELETE FROM samples WHERE source_id = 2");
  std::string expected = kProfile;
  for (const char* line :
       {"sample 2 3 3200000000 - 1 40 tid=2 comm=x\n", "sample 2 1 3900000000 - 1 80\n"}) {
    expected.erase(expected.find(line), std::string(line).size());
  }
  EXPECT_EQ(ReadBack(path.path()), testing::Canonicalize(expected));
}

TEST(SqliteEdits, MaterialisedOrDroppedViewsDoNotMatter) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  Edit(path.path(),
       "CREATE TABLE copy AS SELECT * FROM sample_locations; DROP VIEW sample_locations;"
       "ALTER TABLE copy RENAME TO sample_locations; DROP VIEW top_self;");
  EXPECT_EQ(ReadBack(path.path()), testing::Canonicalize(kProfile));
}

TEST(SqliteEdits, AMissingValueRowIsZero) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  Edit(path.path(), "DELETE FROM sample_values WHERE sample_id = 5 AND type = 'cpu'");
  std::string expected = kProfile;
  expected.replace(expected.find("sample 1 4 - - 1 160"), 20, "sample 1 4 - - 1 0");
  EXPECT_EQ(ReadBack(path.path()), testing::Canonicalize(expected));
}

struct BrokenCase {
  const char* sql;
  const char* message;
};

TEST(SqliteEdits, BrokenConstraintsAreRefusedNamingTableRowAndConstraint) {
  const BrokenCase cases[] = {
      {"PRAGMA foreign_keys = OFF; DELETE FROM locations WHERE location_id = 3",
       "table stacks, row stack_id 3, depth 1: location_id 3 is not in table locations"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM locations WHERE location_id = 2",
       "table location_lines, row location_id 2, position 2: location_id is not in table "
       "locations"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM samples WHERE sample_id = 5",
       "table sample_values, row sample_id 5: sample_id is not in table samples"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM samples WHERE sample_id = 3",
       "table sample_values, row sample_id 3: sample_id is not in table samples"},
      {"DELETE FROM stacks WHERE stack_id = 3 AND depth = 2",
       "table stacks, row stack_id 3, depth 3: depths of a stack run 1, 2, ... without a gap"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM sources WHERE source_id = 2",
       "table samples, row sample_id 3: source_id 2 is not in table sources"},
      {"DELETE FROM stacks WHERE stack_id = 2",
       "table samples, row sample_id 2: stack_id 2 is not in table stacks"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM functions WHERE function_id = 3",
       "table location_lines, row location_id 2, position 2: function_id 3 is not in table "
       "functions"},
      {"PRAGMA ignore_check_constraints = ON; UPDATE functions SET name = '' WHERE "
       "function_id = 1",
       "table functions, row function_id 1: name is empty"},
      {"UPDATE samples SET time_nanos = 'soon' WHERE sample_id = 1",
       "table samples, row sample_id 1: time_nanos is text, not an integer"},
      {"INSERT INTO meta VALUES ('colour', 'blue')",
       "table meta, row key 'colour': unknown key (the profile's own meta records go in table "
       "profile_meta)"},
      {"INSERT INTO meta VALUES ('default_type', 'wall')",
       "table meta, row key 'default_type': 'wall' is not a type of table sample_types"},
      {"PRAGMA foreign_keys = OFF; DELETE FROM sample_types",
       "table sample_types: it is empty: a profile declares at "
       "least one value type"},
      {"UPDATE meta SET value = '2' WHERE key = 'schema_version'",
       "database schema version 2 is newer than this program reads (1); upgrade proftools"},
      {"DELETE FROM meta WHERE key = 'schema_version'",
       "not a profile database of prof2sqlite: table meta has no row 'schema_version'"},
      {"DROP TABLE labels", "table labels is missing (a database of another layout?)"},
      {"DROP TABLE meta",
       "not a profile database: it has no table 'meta' (prof2sqlite writes one)"},
      {"PRAGMA ignore_check_constraints = ON; UPDATE labels SET num = 3 WHERE key = 'comm'",
       "table labels, row sample_id 3, label_index 2: a label has exactly one of str and num"},
  };
  for (const BrokenCase& c : cases) {
    TemporaryDatabase path;
    Write(testing::Parse(kProfile), path.path());
    Edit(path.path(), c.sql);
    EXPECT_EQ(Refusal(path.path()), c.message) << c.sql;
  }
}

// Tables and their columns, for random edits.
struct TableColumns {
  const char* table;
  std::vector<const char*> columns;  // the first is an integer the edits select rows by
};

const std::vector<TableColumns>& EditableTables() {
  static const std::vector<TableColumns> tables = {
      {"sources",
       {"source_id", "source_type", "source_uri", "source_timestamp", "source_time_nanos"}},
      {"sample_types", {"type_index", "type", "unit"}},
      {"mappings", {"mapping_id", "memory_start", "filename", "has_functions"}},
      {"functions", {"function_id", "name", "system_name", "filename", "start_line"}},
      {"locations",
       {"location_id", "function_id", "line", "column_number", "mapping_id", "address",
        "is_folded"}},
      {"location_lines", {"location_id", "position", "function_id", "line", "column_number"}},
      {"stacks", {"stack_id", "depth", "location_id"}},
      {"samples", {"sample_id", "source_id", "stack_id", "time_nanos", "duration_nanos"}},
      {"sample_values", {"sample_id", "type", "unit", "value"}},
      {"labels", {"sample_id", "label_index", "key", "str", "num", "unit"}},
      {"comments", {"comment_id", "comment"}},
  };
  return tables;
}

// Property: whatever rows SQL deletes or changes (constraints and foreign keys switched off),
// sqlite2prof either reads a valid profile or refuses the database with a message of its own
// (never a crash, and never invalid prof text for the checker behind it to catch). Every column
// of every table is set to every kind of value once, and random rows are deleted.
TEST(SqliteProperty, AnyEditIsReadOrRefusedByTheReaderItself) {
  const char* const values[] = {"NULL",
                                "0",
                                "-1",
                                "1",
                                "2",
                                "'x'",
                                "''",
                                "3.5",
                                "X'00'",
                                "9223372036854775807",
                                "-9223372036854775808"};
  std::vector<std::string> edits;
  for (const TableColumns& t : EditableTables()) {
    const std::string table = t.table;
    for (const char* column : t.columns) {
      for (const char* value : values) {
        // Every row, or only the first (so that most rows stay as they were).
        const std::string first = " WHERE " + std::string(t.columns[0]) + " = (SELECT MIN(" +
                                  t.columns[0] + ") FROM " + table + ")";
        for (const std::string& where : {std::string(), first}) {
          edits.push_back("UPDATE OR IGNORE " + table + " SET " + column + " = " + value + where);
        }
      }
    }
    for (int k = 0; k < 3; ++k) {
      edits.push_back("DELETE FROM " + table + " WHERE (" + t.columns[0] + " * 7 + " +
                      std::to_string(k) + ") % 3 = 0");
    }
  }
  testing::RandomProfileGenerator generator(17);
  int read = 0;
  int refused = 0;
  for (const std::string& edit : edits) {
    TemporaryDatabase path;
    Write(generator.Next(), path.path());
    try {
      Edit(path.path(), "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;" + edit);
    } catch (const ProfError&) {
      continue;  // a NOT NULL constraint refused the edit itself
    }
    try {
      ReadBack(path.path());
      ++read;
    } catch (const ProfError& e) {
      ASSERT_EQ(e.diagnostic().rule, Rule::kInput)
          << edit
          << "\nthe checker caught what the reader let through: " << e.diagnostic().Format();
      ++refused;
    }
  }
  // Both outcomes happen, or the property tested nothing.
  EXPECT_GT(read, 50);
  EXPECT_GT(refused, 50);
}

// Property: a damaged database file (bytes overwritten anywhere after SQLite's header) is read
// or refused with a message, never a crash; what the reader accepts is valid prof text.
TEST(SqliteProperty, DamagedFilesAreReadOrRefused) {
  testing::RandomProfileGenerator generator(99);
  std::mt19937 random(99);
  int refused = 0;
  for (int round = 0; round < 200; ++round) {
    TemporaryDatabase path;
    Write(generator.Next(), path.path());
    std::string bytes;
    {
      std::ifstream in(path.path(), std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    ASSERT_GT(bytes.size(), 100u);
    for (int k = 1 + random() % 8; k > 0; --k) {
      bytes[100 + random() % (bytes.size() - 100)] = static_cast<char>(random());
    }
    {
      std::ofstream out(path.path(), std::ios::binary | std::ios::trunc);
      out << bytes;
    }
    try {
      ReadBack(path.path());
    } catch (const ProfError& e) {
      ASSERT_EQ(e.diagnostic().rule, Rule::kInput) << e.diagnostic().Format();
      ++refused;
    }
  }
  EXPECT_GT(refused, 10);
}

// A read's work is bounded (issue 47, item 5): past LimitWork's instructions, the statement
// running is stopped with a message saying why, whatever it was (here an endless query).
TEST(SqliteFiles, WorkPastTheLimitIsStopped) {
  TemporaryDatabase path;
  Write(testing::Parse(kProfile), path.path());
  std::unique_ptr<SqliteDb> db = DatabaseFile(path.path(), 0).Open();
  db->LimitWork(1000000);
  SqliteStatement endless(
      db.get(),
      "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT max(x) FROM r");
  try {
    endless.Step();
    FAIL() << "an endless query ended";
  } catch (const ProfError& e) {
    EXPECT_NE(e.diagnostic().message.find("stopped after 1100000 instructions"), std::string::npos)
        << e.diagnostic().message;
  }
}

TEST(SqliteFiles, WhatIsNotADatabaseIsRefusedSayingHowToMakeOne) {
  TemporaryDatabase path;
  {
    FILE* f = fopen(path.path().c_str(), "w");
    fputs(kProfile, f);
    fclose(f);
  }
  try {
    DatabaseFile file(path.path(), 0);
    FAIL() << "read prof text as a database";
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "not a SQLite database (prof2sqlite loads a profile into one)");
  }
  try {
    DatabaseFile file(path.path() + ".absent", 0);
    FAIL() << "opened a file that does not exist";
  } catch (const ProfError& e) {
    EXPECT_NE(e.diagnostic().message.find("cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace sqlite_test
}  // namespace proftools
