#include "common/io/output_target.h"

#include "common/base/diagnostics.h"

namespace proftools {

OutputTarget::OutputTarget(const std::string& path, const OutputFormat& format) : output_(path) {
  if (format.binary && !format.force && output_.IsTerminal()) {
    throw UsageError("will not write binary data to a terminal; use -o FILE, a pipe, or --force");
  }
  if (format.gzip) gzip_ = std::make_unique<GzipSink>(&output_, format.gzip_level);
}

OutputTarget::~OutputTarget() = default;

void OutputTarget::Commit() {
  if (gzip_) gzip_->Finish();
  output_.Commit();
}

}  // namespace proftools
