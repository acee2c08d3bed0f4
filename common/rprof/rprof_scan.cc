#include "common/rprof/rprof_scan.h"

#include <algorithm>

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"

namespace proftools {

bool RprofPlan::HasMemory() const {
  return std::any_of(sessions.begin(), sessions.end(),
                     [](const RprofSession& s) { return s.header.memory; });
}

RprofPlan ScanRprof(ByteStream* stream, const std::string& name, int spool_fd) {
  CopyingStream source(stream, spool_fd, name);
  LineReader lines(&source, LineReader::kDefaultMaxLine, name);
  RprofPlan plan;
  std::string_view line;
  try {
    while (lines.Next(&line)) {
      // Only lines that start with a letter can be headers; everything else is skipped fast.
      const char c = line.empty() ? '\0' : line[0];
      const bool may_be_header = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      RprofSession session;
      if (may_be_header && ParseRprofHeader(line, &session.header)) {
        session.line = lines.line_number();
        plan.sessions.push_back(std::move(session));
      } else if (lines.line_number() == 1) {
        throw ProfError(Diagnostic{Rule::kInput, name, 1,
                                   "not an Rprof file: the first line should be a header such as "
                                   "'sample.interval=20000', found " +
                                       Printable(line)});
      }
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, name, e.line_number,
                               "line longer than 64 MiB: this is not a file written by Rprof()"});
  }
  plan.bytes = source.bytes();
  if (plan.sessions.empty()) {
    throw ProfError(name, "empty input: an Rprof file starts with a header line");
  }
  return plan;
}

}  // namespace proftools
