// A writer's output as every program opens it: stdout or -o FILE written atomically (Output),
// binary output refused on a terminal unless forced, and gzipped when the format is. The one
// place those rules live, for prof2pprof, prof-merge --pprof, prof2sqlite and the writers to come.
#ifndef PROFTOOLS_COMMON_IO_OUTPUT_TARGET_H_
#define PROFTOOLS_COMMON_IO_OUTPUT_TARGET_H_

#include <memory>
#include <string>

#include "common/io/byte_stream.h"
#include "common/io/gzip_sink.h"
#include "common/io/output.h"

namespace proftools {

struct OutputFormat {
  bool binary = false;  // refused on a terminal unless `force`
  bool force = false;   // --force
  bool gzip = false;    // compressed with GzipSink (deterministic, on both cores)
  int gzip_level = 1;
};

class OutputTarget {
 public:
  // `path` empty or "-": stdout. Throws UsageError for binary output to a terminal, unforced.
  OutputTarget(const std::string& path, const OutputFormat& format);
  ~OutputTarget();
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;

  // Where the writer writes its bytes (the gzip stream or the output itself).
  ByteSink* sink() { return gzip_ ? static_cast<ByteSink*>(gzip_.get()) : &output_; }
  // The output under it, for writers that need the file itself (SQLite writes temp_path()).
  Output& output() { return output_; }

  // Ends the gzip stream and renames the file into place. Until then no output appears.
  void Commit();

 private:
  Output output_;
  std::unique_ptr<GzipSink> gzip_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_IO_OUTPUT_TARGET_H_
