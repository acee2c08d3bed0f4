// rsprof's recording layout (common/sqlite/rsprof_*): a profile written in it and read back
// keeps each leaf symbol's sample count and allocated and freed bytes (property over random
// profiles), the database keeps rsprof's foreign keys, and start_time is read in each ISO 8601
// spelling rsprof may write.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/model/checker.h"
#include "common/sqlite/database_file.h"
#include "common/sqlite/rsprof_reader.h"
#include "common/sqlite/rsprof_writer.h"
#include "common/sqlite/sqlite_db.h"
#include "common/sqlite/temporary_database.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace rsprof_test {  // a namespace of its own: the tests build as one unit
namespace {

// (function, file, line) of a stack's leaf: what rsprof's symbols keep of it.
using LeafKey = std::tuple<std::string, std::string, int64_t>;
struct Totals {
  int64_t count = 0, alloc = 0, free = 0;
  bool operator==(const Totals& o) const {
    return count == o.count && alloc == o.alloc && free == o.free;
  }
};

int TypeIndex(const ProfileHeader& header, const std::string& type, const std::string& unit) {
  for (size_t i = 0; i < header.types.size(); ++i) {
    if (header.types[i].type == type && header.types[i].unit == unit) return static_cast<int>(i);
  }
  return -1;
}

std::map<LeafKey, Totals> LeafTotals(const Profile& profile) {
  int count = TypeIndex(profile.header, "samples", "count");
  for (size_t i = 0; count < 0 && i < profile.header.types.size(); ++i) {
    if (profile.header.types[i].unit == "count") count = static_cast<int>(i);
  }
  const int alloc = TypeIndex(profile.header, "alloc_space", "bytes");
  const int free = TypeIndex(profile.header, "free_space", "bytes");
  std::map<LeafKey, Totals> totals;
  for (const Sample& sample : profile.samples) {
    const Stack* stack = profile.defs.stacks.Find(sample.stack_id);
    if (stack == nullptr || stack->location_ids.empty()) continue;
    const Location* leaf = profile.defs.locations.Find(stack->location_ids.front());
    LeafKey key;
    if (!leaf->lines.empty()) {
      const Function* function = profile.defs.functions.Find(leaf->lines.front().function_id);
      key = {function->name, function->file, leaf->lines.front().line};
    }
    Totals& t = totals[key];
    if (count >= 0) t.count += sample.values[count];
    if (alloc >= 0) t.alloc += sample.values[alloc];
    if (free >= 0) t.free += sample.values[free];
  }
  for (auto it = totals.begin(); it != totals.end();) {
    it = it->second == Totals{} ? totals.erase(it) : std::next(it);
  }
  return totals;
}

Profile ReadBack(const std::string& path, bool allow_empty = true) {
  DatabaseFile file(path, 0);
  ProfileBuilder builder;
  DiagnosticHandler refuse;
  CheckingSink checked(&builder, &refuse, "test.db");
  ReadContext context;
  context.allow_empty = allow_empty;
  ReadRsprofDatabase(file.Open().get(), context, &checked);
  return builder.Take();
}

TEST(RsprofProperty, LeafTotalsSurviveTheLayout) {
  testing::RandomProfileGenerator generator(20261129);
  for (int round = 0; round < 200; ++round) {
    Profile original = generator.Next();
    for (Sample& sample : original.samples) {  // rsprof's counts and bytes are not negative
      for (int64_t& value : sample.values) value = value < 0 ? -(value + 1) : value;
    }
    TemporaryDatabase db;
    {
      SqliteDb sqlite(db.path(), "test.db", SqliteDb::Mode::kCreate);
      RsprofWriter writer(&sqlite, 1000, [](const std::string&) {});
      EmitProfile(original, writer);
    }
    {
      SqliteDb sqlite(db.path(), "test.db", SqliteDb::Mode::kCreate);
      SqliteStatement check(&sqlite, "PRAGMA foreign_key_check");
      EXPECT_FALSE(check.Step()) << "round " << round << ": a row names a missing one";
    }
    const Profile back = ReadBack(db.path());
    ASSERT_EQ(LeafTotals(back), LeafTotals(original)) << "round " << round;
  }
}

std::optional<int64_t> StartTimeRead(const std::string& start_time) {
  TemporaryDatabase db;
  {
    SqliteDb sqlite(db.path(), "test.db", SqliteDb::Mode::kCreate);
    sqlite.Exec(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, timestamp_ms INTEGER NOT NULL);"
        "CREATE TABLE symbols (addr INTEGER PRIMARY KEY, file TEXT, line INTEGER, function TEXT);"
        "CREATE TABLE cpu_samples (checkpoint_id INTEGER, addr INTEGER, count INTEGER);"
        "INSERT INTO meta VALUES ('version', '1'), ('start_time', '" +
        start_time +
        "');"
        "INSERT INTO checkpoints VALUES (1, 1000);"
        "INSERT INTO symbols VALUES (16, 'a.rs', 1, 'f');"
        "INSERT INTO cpu_samples VALUES (1, 16, 5);");
  }
  return ReadBack(db.path()).header.time_nanos;
}

TEST(RsprofStartTime, IsoSpellingsAreRead) {
  EXPECT_EQ(StartTimeRead("2025-01-06T14:30:22Z"), int64_t{1736173822} * 1000000000);
  EXPECT_EQ(StartTimeRead("2025-01-06T14:30:22.25Z"), int64_t{1736173822} * 1000000000 + 250000000);
  EXPECT_EQ(StartTimeRead("2025-01-06T16:30:22+02:00"), int64_t{1736173822} * 1000000000);
  EXPECT_EQ(StartTimeRead("2025-01-06T09:00:22-05:30"), int64_t{1736173822} * 1000000000);
  EXPECT_EQ(StartTimeRead("2025-01-06 14:30:22"), std::nullopt);  // warned of: untimed
  EXPECT_EQ(StartTimeRead("2025-13-06T14:30:22Z"), std::nullopt);
  EXPECT_EQ(StartTimeRead("2025-01-06T14:30:22Zjunk"), std::nullopt);
}

}  // namespace
}  // namespace rsprof_test
}  // namespace proftools
