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

double MinPercentOption(const CommandLine& cli, double fallback) {
  if (!cli.Has("min-percent")) return fallback;
  if (cli.Has("no-trim")) {
    throw UsageError("--no-trim keeps every row; --min-percent keeps those above P%: choose one");
  }
  const double percent = cli.Get<double>("min-percent");
  if (!(percent >= 0 && percent <= 100)) {
    throw UsageError("--min-percent must be between 0 and 100");
  }
  return percent;
}

double EdgePercentOption(const CommandLine& cli, double fallback) {
  if (!cli.Has("edge-percent")) return fallback;
  if (cli.Has("no-trim")) {
    throw UsageError("--no-trim keeps every edge; --edge-percent keeps those above P%: choose one");
  }
  const double percent = cli.Get<double>("edge-percent");
  if (!(percent >= 0 && percent <= 100)) {
    throw UsageError("--edge-percent must be between 0 and 100");
  }
  return percent;
}

}  // namespace proftools
