#include "common/cli/report_options.h"

#include <string>

#include "common/base/diagnostics.h"

namespace proftools {

void AddValueAndGranularityOptions(CommandLine* cli, const std::string& group,
                                   const std::string& value_help) {
  cli->AddOptions(group)("value", value_help, OptionValue(), "TYPE")(
      "granularity",
      "frames are functions (default), filefunctions, files, lines, addresses or filelines "
      "(FILE:LINE, frames without a line left out)",
      OptionValue(), "G");
}

Granularity GranularityOption(const CommandLine& cli) {
  Granularity granularity = Granularity::kFunctions;
  if (cli.Has("granularity") &&
      !ParseGranularity(cli.Get<std::string>("granularity"), &granularity)) {
    throw UsageError(
        "--granularity must be functions, filefunctions, files, lines, addresses or filelines");
  }
  return granularity;
}

namespace {

// --OPTION=P (a percentage of the total under which `what` are left out), or `fallback`; it
// contradicts --no-trim.
double PercentOption(const CommandLine& cli, const char* option, const char* what,
                     double fallback) {
  if (!cli.Has(option)) return fallback;
  if (cli.Has("no-trim")) {
    throw UsageError(std::string("--no-trim keeps every ") + what + "; --" + option +
                     " keeps those above P%: choose one");
  }
  const double percent = cli.Get<double>(option);
  if (!(percent >= 0 && percent <= 100)) {
    throw UsageError(std::string("--") + option + " must be between 0 and 100");
  }
  return percent;
}

}  // namespace

double MinPercentOption(const CommandLine& cli, double fallback) {
  return PercentOption(cli, "min-percent", "row", fallback);
}

double EdgePercentOption(const CommandLine& cli, double fallback) {
  return PercentOption(cli, "edge-percent", "edge", fallback);
}

void AddCallGraphOptions(CommandLine* cli, const std::string& group, const std::string& lead) {
  cli->AddOptions(group)("nodecount", lead + "at most N nodes (80)", OptionValue(), "N")(
      "min-percent", lead + "leave out nodes worth less than P% of the total (0.5)", OptionValue(),
      "P")("edge-percent", lead + "leave out edges worth less than P% of the total (0.1)",
           OptionValue(), "P")(
      "no-trim", lead + "keep every node and edge (up to 1000 nodes and 1000 edges are laid out)");
}

void ReadCallGraphOptions(const CommandLine& cli, ReportOptions* options) {
  const bool trimmed = !cli.Has("no-trim");
  options->min_percent = MinPercentOption(cli, trimmed ? 0.5 : 0);
  options->edge_percent = EdgePercentOption(cli, trimmed ? 0.1 : 0);
  options->node_count = cli.Has("nodecount") ? cli.Get<size_t>("nodecount") : trimmed ? 80 : 0;
}

}  // namespace proftools
