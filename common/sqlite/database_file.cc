#include "common/sqlite/database_file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/sqlite/sqlite_format.h"

namespace proftools {
namespace {

// The work a read may take (SqliteDb::LimitWork): SQLite instructions per byte of the database,
// and at least kMinWork (a few seconds) for a small one. Measured: sqlite2prof took 53 million
// instructions for a 180 MB database of a million samples, 0.3 a byte; a crafted database (its
// indexes dropped, so that every join is a scan) is stopped at 20 a byte.
constexpr uint64_t kWorkPerByte = 20;
constexpr uint64_t kMinWork = uint64_t{1} << 28;

// "file:PATH" with the bytes a URI reserves escaped.
std::string FileUri(const std::string& path, const char* query) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789abcdef";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[static_cast<unsigned char>(c) & 15];
    } else {
      uri += c;
    }
  }
  return uri + query;
}

}  // namespace

DatabaseFile::DatabaseFile(const std::string& path, uint64_t max_copy)
    : DatabaseFile(OpenInput(path), max_copy) {}

DatabaseFile::DatabaseFile(Input input, uint64_t max_copy) {
  name_ = input.name;
  // The magic, then the header's page size and file format versions (byte 18: 2 is WAL).
  std::string head(kSqliteMagic.size() + 4, '\0');
  size_t got = 0;
  std::unique_ptr<ByteStream> stream = std::move(input.stream);
  // A gzipped database is read from its inflated copy.
  const bool regular =
      !input.gzipped && !input.reopen_path.empty() && IsRegularFile(input.reopen_path);
  int copy_fd = -1;
  if (!regular) {
    copy_ = std::make_unique<TemporaryDatabase>();
    copy_fd = open(copy_->path().c_str(), O_WRONLY | O_CLOEXEC);
    if (copy_fd < 0) {
      throw ProfError(copy_->path(), std::string("cannot open: ") + std::strerror(errno));
    }
  }
  // Reads the head (and, for a copy, everything), copying as it goes.
  struct Closer {
    int fd;
    ~Closer() {
      if (fd >= 0) close(fd);
    }
  } closer{copy_fd};
  if (!regular && max_copy != 0) {
    stream = std::make_unique<SpoolCappedStream>(std::move(stream), max_copy, name_);
  }
  CopyingStream copying(stream.get(), copy_fd, name_);
  while (got < head.size()) {
    const size_t n = copying.Read(head.data() + got, head.size() - got);
    if (n == 0) break;
    got += n;
  }
  head.resize(got);
  if (!IsSqliteHeader(head)) {
    if (head.empty()) throw ProfError(name_, "empty input: not a database");
    throw ProfError(name_, "not a SQLite database (prof2sqlite loads a profile into one)");
  }
  if (regular) {
    // A database in WAL mode (rsprof records in it) is read with its -wal file when there is
    // one: what a running or killed recorder has not checkpointed yet. Without one, all of it is
    // in the file, which is opened as immutable: SQLite would otherwise create -wal and -shm
    // files beside it (and fail in a directory we may not write).
    const bool wal = head.size() > 18 && head[18] == 2;
    const bool has_wal_file = access((input.reopen_path + "-wal").c_str(), F_OK) == 0;
    uri_ = FileUri(input.reopen_path, wal && !has_wal_file ? "?mode=ro&immutable=1" : "?mode=ro");
    return;
  }
  char buffer[1 << 16];
  while (copying.Read(buffer, sizeof buffer) > 0) {
  }
  // The copy is ours alone: nothing can change it, so SQLite need not lock it.
  uri_ = FileUri(copy_->path(), "?mode=ro&immutable=1");
}

std::unique_ptr<SqliteDb> DatabaseFile::Open() const {
  auto db = std::make_unique<SqliteDb>(uri_, name_, SqliteDb::Mode::kReadOnly);
  // A damaged or crafted file's b-trees are checked before anything is read from them.
  SqliteStatement check(db.get(), "PRAGMA quick_check(1)");
  if (check.Step() && check.Text(0) != "ok") {
    std::string problem = check.Text(0);
    const std::string_view preface = "*** in database main ***\n";
    if (problem.compare(0, preface.size(), preface) == 0) problem.erase(0, preface.size());
    throw ProfError(name_,
                    "the database file is damaged (quick_check: " + Printable(problem, 120) + ")");
  }
  SqliteStatement size(
      db.get(), "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  const uint64_t bytes = size.Step() ? static_cast<uint64_t>(size.Int(0)) : 0;
  db->LimitWork(std::max(kMinWork, bytes * kWorkPerByte));
  return db;
}

}  // namespace proftools
