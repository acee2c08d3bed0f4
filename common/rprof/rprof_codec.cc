#include "common/rprof/rprof_codec.h"

#include <vector>

#include "common/base/strings.h"
#include "common/model/two_pass.h"
#include "common/rprof/rprof_scan.h"

namespace proftools {
namespace {

int SniffRprof(std::string_view head, bool text) {
  return text && LooksLikeRprof(head) ? kCertain : kNotMine;
}

void ReadRprofInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadInTwoPasses<RprofConverter>(input, context, RprofOptions{}, ScanRprofInput, sink);
}

}  // namespace

bool LooksLikeRprof(std::string_view head) {
  std::string_view line = FirstLine(head);
  for (std::string_view prefix : {"memory profiling: ", "GC profiling: ", "line profiling: "}) {
    if (StartsWith(line, prefix)) line.remove_prefix(prefix.size());
  }
  return StartsWith(line, "sample.interval=");
}

RprofInput ScanRprofInput(Input& input, const std::string& uri, bool allow_empty, int spool_fd) {
  RprofInput scanned;
  scanned.name = input.name;
  scanned.uri = uri;
  if (input.head.empty()) {
    if (allow_empty) return scanned;  // no session
    throw ProfError(input.name,
                    "empty input: an Rprof file starts with a header line (--allow-empty "
                    "converts it to a profile without samples)");
  }
  scanned.plan = ScanRprof(input.stream.get(), input.name, spool_fd);
  return scanned;
}

const ReaderSpec kRprofReader{"rprof",
                              "an Rprof file (R's Rprof())",
                              ReaderShape::kTwoPasses,
                              "rprof2prof",
                              SniffRprof,
                              ReadRprofInput,
                              /*checks_itself=*/true};

}  // namespace proftools
