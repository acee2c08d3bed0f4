#include "common/text/sample_times.h"

#include <optional>
#include <string_view>

#include "common/base/text_syntax.h"
#include "common/text/canonical_lines.h"

namespace proftools {
namespace {

// The next blank-separated field of `line` from *pos (fields here are numbers or '-').
std::string_view NextField(std::string_view line, size_t* pos) {
  size_t i = *pos;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  const size_t start = i;
  while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
  *pos = i;
  return line.substr(start, i - start);
}

}  // namespace

void ScanSampleTimes(ByteStream* stream,
                     const std::function<void(uint64_t, int64_t, int64_t)>& on_sample) {
  constexpr std::string_view kSample = "sample ";
  LineReader lines(stream);
  std::string_view line;
  try {
    while (lines.Next(&line)) {
      if (line.substr(0, kSample.size()) != kSample) continue;
      uint64_t source;
      std::optional<int64_t> canonical_time, canonical_duration;
      if (ParseCanonicalSampleTimes(line, &source, &canonical_time, &canonical_duration)) {
        if (canonical_time) on_sample(source, *canonical_time, canonical_duration.value_or(0));
        continue;
      }
      size_t pos = kSample.size();
      int64_t time, duration = 0;
      if (!ParseId(NextField(line, &pos), &source)) continue;
      NextField(line, &pos);  // STACK
      if (!ParseInt(NextField(line, &pos), &time)) continue;
      const std::string_view duration_field = NextField(line, &pos);
      if (duration_field != "-" && !ParseInt(duration_field, &duration)) continue;
      on_sample(source, time, duration);
    }
  } catch (const LineReader::LineTooLong&) {
    // The second pass reports it, with its line.
  }
}

}  // namespace proftools
