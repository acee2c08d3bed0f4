// A database as one input among profiles: its profile written as canonical prof text to an
// unlinked spool file and opened from there, so that the merge (prof-merge's, which reads
// inputs as bytes) takes databases beside files of any other format.
#ifndef PROFTOOLS_COMMON_SQLITE_LOAD_DATABASE_INPUT_H_
#define PROFTOOLS_COMMON_SQLITE_LOAD_DATABASE_INPUT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "common/io/input.h"
#include "common/io/spool.h"
#include "common/model/reader_spec.h"

namespace proftools {

class DatabaseInput {
 public:
  // Reads the database at `path` ("-": standard input; copied to a temporary file and spooled as
  // text, each of at most the context's max_spool_size bytes, 0: no cap) in any layout
  // ReadAnyDatabase reads. Throws ProfError when it is not a readable profile database.
  DatabaseInput(const std::string& path, const ReadContext& context);
  // The profile, as an input named like the database.
  Input& input() { return input_; }

 private:
  SpoolFile spool_;
  Input input_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_LOAD_DATABASE_INPUT_H_
