// Fuzzes gprof2prof's reader (common/gprof): any bytes as a gmon.out of an executable whose
// functions are fixed here (as the 64-bit and 32-bit builds of a small program lay them out),
// converted through the checker into canonical text that must read back to itself; nothing but
// the library's errors may escape. The first byte picks the address size (odd: 32-bit).
#include "common/elf/elf_function_symbols.h"
#include "common/gprof/gprof_codec.h"
#include "common/model/checker.h"
#include "common/text/text_writer.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  if (size == 0) return 0;
  ElfFunctionTable table;
  table.is_64bit = (data[0] & 1) == 0;
  const char* names[] = {"_init", "_start", "spin", "mix",  "heavy", "light",
                         "depth", "ping",   "pong", "main", "_fini"};
  uint64_t start = 0x1000;
  for (const char* name : names) {
    table.functions.push_back(ElfFunction{start, start + 0x40 + (start & 0x70), name});
    start = table.functions.back().end;
  }
  std::string canonical;
  fuzz::OnlyOurErrors([&] {
    Input input = fuzz::OpenBytes({reinterpret_cast<const char*>(data) + 1, size - 1});
    ReadContext context;
    context.max_input_size = fuzz::kMaxInflate;
    StringSink text;
    CanonicalWriter writer(&text);
    DiagnosticHandler refuse;
    CheckingSink checked(&writer, &refuse, "fuzz");
    ReadGprof(input, context, table, "workload", &checked);
    canonical = text.text();
  });
  if (!canonical.empty()) fuzz::RequireCanonicalRoundTrip(canonical);
  return 0;
}
