// gen-profile: writes a large, deterministic prof text profile for benchmarks.
//
//   gen-profile [--samples N] [--stacks N] [--functions N] [--seed N] [-o FILE]
//
// Stacks are 20-60 frames deep over a pool of locations; samples pick stacks with a skewed
// distribution and carry a timestamp and pid/tid/comm labels, like converted perf data. The
// profile streams through the canonical writer, so memory does not grow with --samples.
#include <random>
#include <string>
#include <vector>

#include "common/cli/cli.h"
#include "common/io/output.h"
#include "common/model/interner.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace {

int Main(int argc, char** argv) {
  CommandLine cli("gen-profile", "[OPTION...]", "Write a large synthetic prof text profile.");
  cli.AddOptions()("samples", "number of samples", OptionValue().default_value("1000000"))(
      "stacks", "distinct stacks", OptionValue().default_value("50000"))(
      "functions", "distinct functions", OptionValue().default_value("5000"))(
      "seed", "random seed", OptionValue().default_value("1"));
  cli.AddOutputOption();
  if (!cli.Parse(argc, argv)) return cli.exit_status();
  const uint64_t samples = cli.Get<uint64_t>("samples");
  const uint64_t stack_count = cli.Get<uint64_t>("stacks");
  const uint64_t function_count = cli.Get<uint64_t>("functions");
  std::mt19937_64 random(cli.Get<uint64_t>("seed"));

  Output output(cli.OutputPath());
  CanonicalWriter writer(&output);
  ProfileHeader header;
  header.sources.push_back({1, "manual", "gen-profile", 1700000000000000000});
  header.types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  header.default_type = "cpu";
  header.period = {{"cpu", "nanoseconds"}, 10000000};
  writer.OnHeader(header);
  Interner interner(&writer);

  const uint64_t mapping =
      interner.Mapping({0, 0x400000, 0x4000000, 0, "/usr/bin/app", "", true, true, true, false});
  std::vector<uint64_t> functions;
  static const char* const kShapes[] = {"ns%llu::Class%llu::method_%llu", "c_function_%llu",
                                        "pkg/sub%llu.(*T%llu).Method%llu"};
  for (uint64_t i = 0; i < function_count; ++i) {
    char name[96];
    std::snprintf(name, sizeof name, kShapes[i % 3], static_cast<unsigned long long>(i % 17),
                  static_cast<unsigned long long>(i % 101), static_cast<unsigned long long>(i));
    functions.push_back(
        interner.Function({0, name, "", "src/file" + std::to_string(i % 300) + ".cc",
                           static_cast<int64_t>(i % 1000)}));
  }
  std::vector<std::vector<uint64_t>> stacks(stack_count);
  const uint64_t location_pool = function_count * 4;
  for (auto& stack : stacks) {
    const size_t depth = 20 + random() % 41;
    for (size_t d = 0; d < depth; ++d) {
      // Outer frames are shared between stacks, leaves vary: like real call trees.
      const uint64_t pick = d + 5 >= depth ? (depth - d) % 3 : random() % location_pool;
      stack.push_back(pick);
    }
  }
  std::vector<uint64_t> location_ids(location_pool, 0);
  auto location = [&](uint64_t index) {
    if (location_ids[index] == 0) {
      location_ids[index] = interner.Location(
          {0,
           mapping,
           0x400000 + index * 16,
           false,
           {{functions[index % function_count], static_cast<int64_t>(index % 5000), 0}}});
    }
    return location_ids[index];
  };
  std::vector<uint64_t> stack_ids(stack_count, 0);
  static const char* const kComms[] = {"app", "worker-1", "net io 2", "fib hog"};
  Sample sample;
  sample.source_id = 1;
  std::vector<uint64_t> locations;
  int64_t time = 1700000000000000000;
  for (uint64_t i = 0; i < samples; ++i) {
    // Skewed choice: a few hot stacks, a long tail.
    const double u = std::generate_canonical<double, 32>(random);
    const uint64_t index = static_cast<uint64_t>(u * u * u * static_cast<double>(stack_count));
    if (stack_ids[index] == 0) {
      locations.clear();
      for (uint64_t l : stacks[index]) locations.push_back(location(l));
      stack_ids[index] = interner.Stack(locations);
    }
    sample.stack_id = stack_ids[index];
    time += 1000000 + static_cast<int64_t>(random() % 100000);
    sample.time_nanos = time;
    sample.values = {1, 10000000};
    const uint64_t thread = index % 4;
    sample.labels = {Label::String("comm", kComms[thread]), Label::Number("pid", 4242),
                     Label::Number("tid", static_cast<int64_t>(4242 + thread))};
    writer.OnSample(sample);
  }
  writer.OnEnd();
  output.Commit();
  return kExitOk;
}

}  // namespace
}  // namespace proftools

int main(int argc, char** argv) {
  return proftools::RunProgram("gen-profile", [&] { return proftools::Main(argc, argv); });
}
