#include "common/load/writers.h"

#include "common/callgrind/callgrind_writer.h"
#include "common/chrome/trace_writer.h"
#include "common/firefox/firefox_writer.h"
#include "common/pprof/pprof_codec.h"
#include "common/speedscope/speedscope_writer.h"
#include "common/text/text_codec.h"

namespace proftools {

const std::vector<const WriterSpec*>& Writers() {
  // Adding a writer: its codec's WriterSpec, and one line here.
  static const std::vector<const WriterSpec*> kWriters = {
      &kProfTextWriter,     // canonical prof text (prof-text --canonical)
      &kPprofWriter,        // profile.proto, gzipped (prof2pprof, which has options of its own)
      &kChromeTraceWriter,  // the Trace Event Format (prof2chrome)
      &kSpeedscopeWriter,   // speedscope's file format (prof2speedscope)
      &kCallgrindWriter,    // the callgrind format (prof2callgrind)
      &kFirefoxWriter,      // the Firefox Profiler's processed profile (prof2firefox)
  };
  return kWriters;
}

const WriterSpec* FindWriter(std::string_view name) {
  for (const WriterSpec* writer : Writers()) {
    if (name == writer->name) return writer;
  }
  return nullptr;
}

std::string WriterNames() {
  std::string names;
  for (const WriterSpec* writer : Writers()) {
    names += (names.empty() ? "" : ", ") + std::string(writer->name);
  }
  return names;
}

}  // namespace proftools
