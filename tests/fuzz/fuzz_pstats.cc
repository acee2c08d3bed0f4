// Fuzzes the pstats reader's two readings against each other (common/pstats): where the reading
// of cProfile's shape straight from the bytes (cprofile_direct.h) takes an input, the reading
// as marshal data must take it too and give the same canonical text, which the checker must
// accept; where the direct reading gives up, nothing but the library's errors may escape the
// other. (The registry's harness, `readers`, fuzzes the reader as the programs run it.)
#include "common/model/checker.h"
#include "common/model/interner.h"
#include "common/pstats/cprofile_direct.h"
#include "common/pstats/pstats_codec.h"
#include "common/text/text_writer.h"
#include "tests/fuzz/fuzz_util.h"

namespace proftools {
namespace fuzz_pstats {

// Canonical text of the profile the reading gives (ProfError when it refuses the bytes).
std::string PstatsText(std::string_view bytes, PstatsReading reading) {
  bool shared_by_calls = false;
  CallGraph graph = ReadPstatsGraph(bytes, "fuzz", reading, &shared_by_calls);
  StringSink text;
  CanonicalWriter writer(&text);
  DiagnosticHandler refuse;
  CheckingSink checked(&writer, &refuse, "fuzz");
  ProfileHeader header;
  header.sources.push_back(Source{1, "pstats", "", std::nullopt});
  header.types = {{"time", "nanoseconds"}, {"calls", "count"}};
  header.default_type = "time";
  checked.OnHeader(header);
  Interner interner(&checked);
  graph.Emit(&interner, &checked, 1, true, {});
  checked.OnEnd();
  return text.text();
}

}  // namespace fuzz_pstats
}  // namespace proftools

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proftools;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  bool direct = false;
  fuzz::OnlyOurErrors([&] {
    PstatsGraph graph;
    direct = ReadCProfileDirect(bytes, &graph);
  });
  std::string as_marshal;
  const fuzz::Outcome general = fuzz::OnlyOurErrors(
      [&] { as_marshal = fuzz_pstats::PstatsText(bytes, PstatsReading::kMarshalOnly); });
  if (!direct) return 0;
  fuzz::Require(!general.failed,
                "the direct reading took what marshal's refuses: " + general.diagnostic.Format());
  std::string first;
  const fuzz::Outcome outcome = fuzz::OnlyOurErrors(
      [&] { first = fuzz_pstats::PstatsText(bytes, PstatsReading::kDirectFirst); });
  fuzz::Require(!outcome.failed,
                "the direct reading's profile is refused: " + outcome.diagnostic.Format());
  fuzz::Require(first == as_marshal, "the two readings give two profiles");
  fuzz::RequireCanonicalRoundTrip(first);
  return 0;
}
