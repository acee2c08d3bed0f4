// Fuzzes perf2prof's reader and converter: scan, convert (checked), canonical text that reads
// back to itself; nothing but the library's errors escapes. A quarter of the inputs are
// converted a second time with the reading on its own thread (perf_pipeline.h), in small
// blocks, which must give the same text or the same error.
#include "common/perf/perf_codec.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  PerfOptions options;
  options.strict = size > 0 && data[0] == '#';  // sometimes, so that both paths are fuzzed
  options.off_cpu = size % 2 == 1;              // and --off-cpu half the time
  options.pipeline_min_bytes = UINT64_MAX;      // the reading on the converter's thread
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto scan = [](ByteStream* stream, const std::string& name) {
    return PerfInput{name, name, ScanPerfScript(stream, name)};
  };
  const std::string once =
      fuzz::ConvertTwoPasses<PerfConverter, PerfInput>(bytes, kPerfScriptReader, options, scan);
  if (size > 0 && data[size - 1] % 4 == 0) {
    options.pipeline_min_bytes = 0;
    options.pipeline_block_bytes = 1 + data[0] % 97;
    const std::string pipelined =
        fuzz::ConvertTwoPasses<PerfConverter, PerfInput>(bytes, kPerfScriptReader, options, scan);
    fuzz::Require(pipelined == once, "the pipelined reading gives another profile");
  }
  return 0;
}
