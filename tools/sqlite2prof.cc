// sqlite2prof: a profile database written by prof2sqlite (and maybe edited since) -> prof text.
#include <memory>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/output.h"
#include "common/load/read_profile.h"
#include "common/load/readers.h"
#include "common/merge/merger.h"
#include "common/model/checker.h"
#include "common/sqlite/sqlite_codec.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace sqlite2prof {
namespace {

constexpr const char* kProgram = "sqlite2prof";

// A database, of any layout the registry's SQLite reader reads; anything else is refused saying
// what it is.
void RequireDatabase(const Input& input, const ReadOptions& read) {
  if (!read.format.empty() || SniffReader(input) == &kSqliteReader) return;
  if (input.head.empty()) throw ProfError(input.name, "empty input: not a database");
  throw ProfError(input.name, "not a SQLite database (prof2sqlite loads a profile into one)");
}

int Main(int argc, char** argv) {
  CommandLine cli(
      kProgram, "[OPTION...] [DB...]",
      "Convert a profile database written by prof2sqlite back into canonical prof text: the "
      "same bytes as the profile that was loaded. A database changed by SQL since (samples "
      "deleted, a view materialised, rows added) is read as long as it keeps the model's "
      "constraints, and refused naming the table, row and constraint otherwise; a database of "
      "another layout or of a newer schema version is refused. A recording of rsprof (tables "
      "meta, checkpoints, symbols, cpu_samples, heap_events) is read too: a sample per row, "
      "over its checkpoint's interval. Every program reads databases; this one reads nothing "
      "else. Several databases are merged into one profile as prof-merge merges. With no DB, "
      "or when DB is -, reads standard input.",
      "Examples:\n"
      "  sqlite2prof runs.db > runs.prof\n"
      "  sqlite2prof runs.db | prof-text                        report on it\n"
      "  sqlite3 runs.db 'DELETE FROM samples WHERE time_nanos < 1700000000000000000' &&\n"
      "    sqlite2prof runs.db | prof2pprof -o recent.pb.gz\n"
      "  sqlite2prof rsprof.app.250106143022.db | prof-text --derive "
      "live=alloc_space-free_space\n");
  cli.AddOutputOption();
  cli.AddAllowEmptyOption("a database without samples");
  cli.AddMaxInputSizeOption();
  cli.AddInputs();
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const ReadOptions read = cli.InputReadOptions();

  const std::vector<std::string> paths = cli.Inputs();
  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  DiagnosticHandler refuse;
  // The reader checks the model's constraints itself, naming tables and rows; the checker
  // behind it refuses whatever would still make invalid prof text.
  if (paths.size() == 1) {
    Input input = OpenInput(paths[0]);
    RequireDatabase(input, read);
    CheckingSink checked(&writer, &refuse, input.name);
    ReadProfile(input, &checked, read);
  } else {
    MergeOptions merge;
    merge.read = read;
    Merger merger(merge);
    for (const std::string& path : paths) {
      Input input = OpenInput(path);
      RequireDatabase(input, read);
      merger.Add(input, path == "-" ? "" : path);
    }
    CheckingSink checked(&writer, &refuse, "(merged profile)");
    merger.Finish(&checked);
  }
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace sqlite2prof
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram(proftools::sqlite2prof::kProgram,
                               [&] { return proftools::sqlite2prof::Main(argc, argv); });
}
