// prof2sqlite: profiles (prof text or pprof, any mix) -> a SQLite database, in the relational
// model of the R profile package's v2 plan, with views for the usual questions.
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "common/base/quantity.h"
#include "common/base/text_syntax.h"
#include "common/cli/cli.h"
#include "common/cli/profile_inputs.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/merge/merger.h"
#include "common/model/checker.h"
#include "common/sqlite/rsprof_writer.h"
#include "common/sqlite/sqlite_db.h"
#include "common/sqlite/sqlite_writer.h"
#include "common/sqlite/temporary_database.h"
#include "common/sqlite_load/database_input.h"

namespace proftools {
namespace prof2sqlite {
namespace {

constexpr const char* kProgram = "prof2sqlite";

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [FILE...] -o DB",
      "Load profiles (prof text or pprof, gzipped or not, any mix) into a new SQLite database: "
      "one row per raw sample, values in long form (sample_values), stacks, locations, "
      "functions, mappings, labels and sources as tables with their keys, and views for the "
      "top functions by self and cumulative value, per time bucket, and live bytes (man "
      "prof2sqlite shows the queries). Several FILEs are one profile, merged as prof-merge "
      "merges. sqlite2prof gives the profile back, byte for byte. With no FILE, or when FILE "
      "is -, reads standard input.",
      "Examples:\n"
      "  perf script | perf2prof | prof2sqlite -o cpu.db\n"
      "  prof2sqlite --append -o runs.db today.prof      add a run to a database\n"
      "  sqlite3 runs.db 'SELECT name, self FROM top_self LIMIT 10'\n"
      "  prof2sqlite --schema rsprof -o rsprof.app.db cpu.prof   for rsprof's own queries\n");
  cli.AddOptions()("append",
                   "add the profiles to the database -o DB, merged with what it holds as "
                   "prof-merge merges (every source kept, ids remapped); the database is "
                   "replaced atomically (and created when it does not exist)")(
      "force", "write the database even to a terminal")(
      "schema",
      "the database's layout: proftools (the whole profile, read back byte for "
      "byte) or rsprof (rsprof's recording tables: leaf frames, sample counts and allocated and "
      "freed bytes per checkpoint; what it cannot keep is warned of)",
      OptionValue().default_value("proftools"),
      "NAME")("checkpoint", "with --schema rsprof, the interval of a checkpoint (rsprof's is 1s)",
              OptionValue().default_value("1s"), "DURATION");
  cli.AddMaxInputSizeOption();
  cli.AddInputFormatOption();
  cli.AddOutputOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();

  const std::vector<std::string> paths = cli.Inputs();
  const std::string output_path = cli.OutputPath();
  const bool append = cli.Has("append");
  if (append && output_path.empty()) throw UsageError("--append needs -o DB, the database");
  const std::string schema = cli.Get<std::string>("schema");
  if (schema != "proftools" && schema != "rsprof") {
    throw UsageError("--schema " + Printable(schema) + ": the layouts are proftools and rsprof");
  }
  const bool rsprof = schema == "rsprof";
  if (rsprof && append) {
    throw UsageError("--append adds to a database of the proftools layout only");
  }
  int64_t checkpoint_nanos = 0;
  std::string error;
  if (!ParseDuration(cli.Get<std::string>("checkpoint"), &checkpoint_nanos, &error) ||
      checkpoint_nanos < 1000000) {
    throw UsageError("--checkpoint " + Printable(cli.Get<std::string>("checkpoint")) + ": " +
                     (error.empty() ? "at least 1ms" : error));
  }
  if (cli.Has("checkpoint") && !rsprof) throw UsageError("--checkpoint goes with --schema rsprof");
  // The existing database is read before the output is opened, so a bad one changes nothing.
  // A database that does not exist yet starts empty: the first run of a collection creates it.
  std::unique_ptr<DatabaseInput> existing;
  if (append && access(output_path.c_str(), F_OK) == 0) {
    const ReadOptions read = cli.InputReadOptions();
    ReadContext context;
    context.uri = output_path;
    context.max_input_size = read.max_input_size;
    context.max_spool_size = read.max_spool_size;
    context.warnings = read.warnings;
    existing = std::make_unique<DatabaseInput>(output_path, context);
  }

  Output output(output_path);
  if (output.IsTerminal() && !cli.Has("force")) {
    throw UsageError("will not write a database to a terminal; use -o DB, a pipe, or --force");
  }
  // The database is built in Output's own temporary file when it has one (a file -o names),
  // else in a temporary file of ours whose bytes are then copied (standard output, a device).
  std::unique_ptr<TemporaryDatabase> temporary;
  if (output.temp_path().empty()) temporary = std::make_unique<TemporaryDatabase>();
  {
    SqliteDb db(temporary ? temporary->path() : output.temp_path(), output.name(),
                SqliteDb::Mode::kCreate);
    // Each writer starts its transaction when it is made: only the chosen one is.
    std::unique_ptr<ProfileSink> writer;
    if (rsprof) {
      writer = std::make_unique<RsprofWriter>(
          &db, checkpoint_nanos / 1000000,
          [&](const std::string& what) { Warn(kProgram, output.name() + ": " + what); });
    } else {
      writer = std::make_unique<SqliteWriter>(&db);
    }
    DiagnosticHandler refuse;  // a violation here is a bug of this program
    CheckingSink checked(writer.get(), &refuse, "(database)");
    if (existing) {
      MergeOptions options;
      options.read = cli.InputReadOptions();
      Merger merger(options);
      merger.Add(existing->input(), output_path);
      for (const std::string& path : paths) {
        Input input = OpenInput(path);
        merger.Add(input, path == "-" ? "" : path);
      }
      merger.Finish(&checked);
    } else {
      ProfileInputs inputs(paths, cli.InputReadOptions());
      inputs.Read(&checked);
    }
  }
  if (temporary) temporary->CopyTo(&output);
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace prof2sqlite
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::prof2sqlite::kProgram,
                               [&] { return proftools::prof2sqlite::Main(argc, argv); });
}
