// Fuzzes rprof2prof's reader and converter: scan, convert (checked), canonical text that reads
// back to itself; nothing but the library's errors escapes.
#include "common/rprof/rprof_codec.h"
#include "common/rprof/rprof_scan.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  RprofOptions options;
  options.strict = size > 0 && data[size - 1] == '!';  // sometimes, so that both paths are fuzzed
  fuzz::ConvertTwoPasses<RprofConverter, RprofInput>(
      {reinterpret_cast<const char*>(data), size}, kRprofReader, options,
      [](ByteStream* stream, const std::string& name) {
        return RprofInput{name, name, ScanRprof(stream, name)};
      });
  return 0;
}
