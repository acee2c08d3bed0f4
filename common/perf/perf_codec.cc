#include "common/perf/perf_codec.h"

#include <cctype>
#include <vector>

#include "common/model/two_pass.h"
#include "common/perf/data/perf_data_converter.h"

namespace proftools {
namespace {

int SniffPerfScript(std::string_view head, bool text) {
  return text && LooksLikePerfScript(head) ? kLikely : kNotMine;
}

void ReadPerfScriptInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadInTwoPasses<PerfConverter>(input, context, PerfOptions{}, ScanPerfInput, sink);
}

// perf record's binary file: "PERFILE2" (perf's current header) or "PERFFILE" (the first one,
// which the reader refuses with the perf script command that converts it).
int SniffPerfData(std::string_view head, bool) {
  return LooksLikePerfData(head) ? kCertain : kNotMine;
}

void ReadPerfDataInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadPerfData(input, context, PerfDataOptionsFrom(context.settings), sink);
}

}  // namespace

bool LooksLikePerfScript(std::string_view head) {
  if (head.substr(0, 10) == "# ========") return true;
  // A stack line: a tab, then a hex address, then a symbol; or, as simpleperf's
  // report_sample.py prints them, a hex address right-aligned in spaces and then a tab.
  for (size_t pos = head.find('\n'); pos != std::string_view::npos;
       pos = head.find('\n', pos + 1)) {
    size_t i = pos + 1;
    bool tab = false;
    for (; i < head.size() && (head[i] == ' ' || head[i] == '\t'); ++i) {
      if (head[i] == '\t') tab = true;
    }
    if (i == pos + 1) continue;  // not indented
    size_t digits = 0;
    while (i + digits < head.size() &&
           std::isxdigit(static_cast<unsigned char>(head[i + digits]))) {
      ++digits;
    }
    if (digits < 4 || i + digits >= head.size()) continue;
    const char after = head[i + digits];
    if ((tab && after == ' ') || after == '\t') return true;
  }
  return false;
}

PerfInput ScanPerfInput(Input& input, const std::string& uri, bool allow_empty, int spool_fd) {
  PerfInput scanned;
  scanned.name = input.name;
  scanned.uri = uri;
  scanned.plan = ScanPerfScript(input.stream.get(), input.name, spool_fd);
  if (scanned.plan.samples == 0 && scanned.plan.unknown_lines > 0) {
    throw ProfError(input.name,
                    "not perf script output: no line is a sample header such as "
                    "'comm 1234 [000] 12.345678: 250000 cpu-clock:'");
  }
  // A failed recording prints nothing: that must not pass for a valid empty profile.
  if (scanned.plan.samples == 0 && !allow_empty) {
    throw ProfError(input.name,
                    "no samples: is the input perf script output? (--allow-empty converts it "
                    "to a profile without samples)");
  }
  return scanned;
}

const ReaderSpec kPerfScriptReader{"perf",
                                   "perf script output",
                                   ReaderShape::kTwoPasses,
                                   "perf2prof",
                                   SniffPerfScript,
                                   ReadPerfScriptInput,
                                   /*checks_itself=*/true};

const ReaderSpec kPerfDataReader{"perf-data",
                                 "a perf.data file",
                                 ReaderShape::kTwoPasses,
                                 "perf2prof",
                                 SniffPerfData,
                                 ReadPerfDataInput,
                                 /*checks_itself=*/false};

}  // namespace proftools
