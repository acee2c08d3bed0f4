// Fuzzes the pprof reader (gzipped or not) and writer: validity as for prof text; a valid
// profile's canonical text reads back to itself, and written as .pb.gz by prof2pprof's writer
// it reads back as a valid profile whose canonical text also reads back to itself.
#include "common/io/gzip_sink.h"
#include "common/pprof/pprof_writer.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  using namespace proftools::fuzz;
  std::string canonical;
  if (!ValidateAndCanonicalAgree({reinterpret_cast<const char*>(data), size}, &canonical)) {
    return 0;
  }
  RequireCanonicalRoundTrip(canonical);
  StringSink pprof;
  const Outcome written = OnlyOurErrors([&] {
    Input input = OpenBytes(canonical);
    GzipSink gzip(&pprof, 1, 1);
    PprofWriter writer(&gzip, PprofWriteOptions{});
    ReadProfile(input, &writer);
    gzip.Finish();
  });
  Require(!written.failed,
          "a valid profile cannot be written as pprof: " + written.diagnostic.Format());
  std::string again;
  Require(ValidateAndCanonicalAgree(pprof.text(), &again), "our own pprof output is invalid");
  RequireCanonicalRoundTrip(again);
  return 0;
}
