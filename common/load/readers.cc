#include "common/load/readers.h"

#include "common/android/art_trace_codec.h"
#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"
#include "common/callgrind/callgrind_codec.h"
#include "common/chrome/cpuprofile_codec.h"
#include "common/chrome/heapprofile_codec.h"
#include "common/chrome/perfetto/perfetto_codec.h"
#include "common/chrome/trace_codec.h"
#include "common/chrome/v8log/v8_log_codec.h"
#include "common/firefox/firefox_codec.h"
#include "common/folded/folded_reader.h"
#include "common/ghc/ghc_prof_codec.h"
#include "common/gprof/gprof_report.h"
#include "common/instruments/instruments_codec.h"
#include "common/jfr/jfr_codec.h"
#include "common/load/known_formats.h"
#include "common/perf/perf_codec.h"
#include "common/perf/simpleperf/simpleperf_codec.h"
#include "common/pprof/pprof_codec.h"
#include "common/pstats/pstats_codec.h"
#include "common/rprof/rprof_codec.h"
#include "common/speedscope/speedscope_codec.h"
#include "common/sqlite/sqlite_codec.h"
#include "common/stackprof/stackprof_codec.h"
#include "common/text/text_codec.h"
#include "common/valgrind/dhat_codec.h"
#include "common/valgrind/massif_codec.h"

namespace proftools {

const std::vector<const ReaderSpec*>& Readers() {
  // Adding a reader: its codec folder, and one line here.
  static const std::vector<const ReaderSpec*> kReaders = {
      &kProfTextReader,      // proftext 1.0
      &kPprofReader,         // profile.proto, gzipped or not
      &kLegacyPprofReader,   // refused with the pprof command that converts them
      &kPerfScriptReader,    // perf script
      &kPerfDataReader,      // perf record's perf.data, symbolised with elfutils
      &kRprofReader,         // R's Rprof()
      &kSqliteReader,        // SQLite databases: prof2sqlite's and rsprof's
      &kFoldedReader,        // FlameGraph's folded stacks
      &kCpuProfileReader,    // V8's .cpuprofile (JSON)
      &kChromeTraceReader,   // Chrome's traces: the Trace Event Format (JSON)
      &kHeapProfileReader,   // V8's sampling heap profiles, .heapprofile (JSON)
      &kSpeedscopeReader,    // speedscope's file format (JSON)
      &kCallgrindReader,     // valgrind's callgrind and cachegrind formats
      &kJfrReader,           // Java Flight Recorder recordings (.jfr)
      &kFirefoxReader,       // the Firefox Profiler's Gecko and processed profiles (JSON)
      &kPstatsReader,        // Python's profiler statistics (cProfile -o)
      &kMassifReader,        // valgrind massif's output
      &kDhatReader,          // valgrind DHAT's output (JSON)
      &kInstrumentsReader,   // Xcode Instruments' deep copy of a call tree (text)
      &kGprofReportReader,   // gprof's text report
      &kPerfettoReader,      // Perfetto's protobuf traces (Chrome, Android)
      &kSimpleperfReader,    // Android's simpleperf report-sample --protobuf
      &kArtTraceReader,      // Android's ART method traces (.trace)
      &kStackprofReader,     // Ruby's stackprof results (Marshal .dump, or JSON)
      &kV8LogReader,         // V8's tick log (node --prof)
      &kGhcProfReader,       // GHC's cost-centre profiles (.prof: text and JSON)
      &kKnownFormatsReader,  // recognised, not read yet: refused with what to do instead
  };
  return kReaders;
}

const ReaderSpec* FindReader(std::string_view name) {
  for (const ReaderSpec* reader : Readers()) {
    if (name == reader->name) return reader;
  }
  return nullptr;
}

std::string ReaderNames() {
  std::string names;
  for (const ReaderSpec* reader : Readers()) {
    if (!reader->only_advises) names += (names.empty() ? "" : ", ") + std::string(reader->name);
  }
  return names;
}

const ReaderSpec& ReaderNamed(const std::string& format) {
  const ReaderSpec* reader = FindReader(format);
  if (reader == nullptr || reader->only_advises) {
    throw UsageError("--input-format " + Printable(format) + ": no such format (the formats are " +
                     ReaderNames() + ")");
  }
  return *reader;
}

const ReaderSpec* SniffReader(const Input& input) {
  const ReaderSpec* best = nullptr;
  int best_confidence = kNotMine;
  for (const ReaderSpec* reader : Readers()) {
    const int confidence = reader->sniff(input.head, input.text);
    if (confidence > best_confidence) {
      best = reader;
      best_confidence = confidence;
    }
  }
  return best;
}

const ReaderSpec& ChooseReader(const Input& input, const std::string& format) {
  if (!format.empty()) return ReaderNamed(format);
  if (const ReaderSpec* reader = SniffReader(input)) return *reader;
  if (input.head.empty()) return kProfTextReader;
  // What no reader claims breaks prof text's header rule, the format every program reads first
  // (the conformance suite expects [header] on line 1 for a misspelt header).
  if (input.text) {
    throw ProfError(Diagnostic{Rule::kHeader, input.name, 1,
                               "not a profile of any format proftools reads: its first line is " +
                                   Printable(FirstLine(input.head).substr(0, 60)) +
                                   " (the formats are " + ReaderNames() +
                                   "; --input-format NAME reads it as one of them)"});
  }
  throw ProfError(Diagnostic{Rule::kHeader, input.name, 0,
                             "binary data of no format proftools reads (the formats are " +
                                 ReaderNames() + "; --input-format NAME reads it as one of them)"});
}

void RequireFormat(Input& input, const ReaderSpec& expected, const std::string& format) {
  if (!format.empty()) {
    const ReaderSpec& named = ReaderNamed(format);
    if (&named != &expected) {
      throw UsageError(std::string("--input-format ") + named.name + ": this program reads " +
                       expected.summary + " only");
    }
    return;
  }
  const ReaderSpec* sniffed = SniffReader(input);
  if (sniffed == nullptr || sniffed == &expected) return;
  if (sniffed->only_advises) {
    sniffed->read(input, ReadContext{}, nullptr);  // throws its advice
  }
  std::string what = std::string("is ") + sniffed->summary + ", not " + expected.summary;
  if (sniffed == &kProfTextReader) {
    what += ": read it with prof-text";
  } else if (sniffed->converter != nullptr) {
    what += ": convert it with " + std::string(sniffed->converter) +
            " (any proftools program reads it too)";
  }
  throw ProfError(input.name, what);
}

}  // namespace proftools
