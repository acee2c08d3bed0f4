#include "common/sqlite_load/database_input.h"

#include "common/model/checker.h"
#include "common/sqlite/database_file.h"
#include "common/sqlite/sqlite_codec.h"
#include "common/text/text_writer.h"

namespace proftools {

DatabaseInput::DatabaseInput(const std::string& path, const ReadContext& context) {
  const uint64_t max_spool = context.max_spool_size;
  DatabaseFile file(path, max_spool);
  {
    SpoolWriter bytes(spool_, max_spool, file.name());
    CanonicalWriter writer(&bytes);
    DiagnosticHandler refuse;  // what the reader's own checks let through
    CheckingSink checked(&writer, &refuse, file.name());
    ReadAnyDatabase(file.Open().get(), context, &checked);
    bytes.Flush();
  }
  input_ = OpenInputStream(spool_.Reopen(file.name()), file.name());
}

}  // namespace proftools
