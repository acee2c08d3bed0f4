#include "common/cli/report_options.h"

#include <string>

#include "common/base/diagnostics.h"

namespace proftools {

Granularity GranularityOption(const CommandLine& cli) {
  Granularity granularity = Granularity::kFunctions;
  if (cli.Has("granularity") &&
      !ParseGranularity(cli.Get<std::string>("granularity"), &granularity)) {
    throw UsageError(
        "--granularity must be functions, filefunctions, files, lines, addresses or filelines");
  }
  return granularity;
}

}  // namespace proftools
