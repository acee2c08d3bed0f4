// Fuzzes perf2prof's reader and converter: scan, convert (checked), canonical text that reads
// back to itself; nothing but the library's errors escapes.
#include "common/perf/perf_converter.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  PerfOptions options;
  options.strict = size > 0 && data[0] == '#';  // sometimes, so that both paths are fuzzed
  options.off_cpu = size % 2 == 1;              // and --off-cpu half the time
  fuzz::ConvertTwoPasses<PerfConverter, PerfInput>(
      {reinterpret_cast<const char*>(data), size}, options,
      [](ByteStream* stream, const std::string& name) {
        return PerfInput{name, name, ScanPerfScript(stream, name)};
      });
  return 0;
}
