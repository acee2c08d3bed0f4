// format-value: prints FormatValue and FormatPercent (common/report/value_format) for each
// VALUE, one line each: "VALUE<TAB>formatted<TAB>percent of TOTAL", so that tests can hold
// prof-html's script, which formats values again in the browser, to the same text.
//
//   format-value UNIT TOTAL VALUE...
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/report/value_format.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: format-value UNIT TOTAL VALUE...\n");
    return 2;
  }
  const std::string unit = argv[1];
  const int64_t total = std::strtoll(argv[2], nullptr, 10);
  for (int i = 3; i < argc; ++i) {
    const int64_t value = std::strtoll(argv[i], nullptr, 10);
    std::printf("%lld\t%s\t%s\n", static_cast<long long>(value),
                proftools::FormatValue(value, unit, false).c_str(),
                proftools::FormatPercent(value, total).c_str());
  }
  return 0;
}
