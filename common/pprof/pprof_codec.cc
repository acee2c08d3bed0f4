#include "common/pprof/pprof_codec.h"

#include <cstdint>
#include <string>

#include "common/io/whole_input.h"
#include "common/model/checker.h"
#include "common/pprof/legacy_pprof.h"
#include "common/pprof/pprof_reader.h"
#include "common/pprof/pprof_writer.h"

namespace proftools {
namespace {

bool ReadVarint(std::string_view s, size_t* i, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && *i < s.size(); shift += 7) {
    const unsigned char byte = static_cast<unsigned char>(s[(*i)++]);
    *value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0) return true;
  }
  return false;
}

// What pprof allows and prof text does not (duplicate type names, empty type names, negative
// line numbers, ...) is caught by the checker on the header and the definitions. Stacks and
// samples go straight through: the pprof reader already enforces their rules (ids it assigns
// itself, references to defined locations and sources, value counts, non-empty label keys,
// non-negative times), and checking a million samples twice is the cost of a second reader.
// So do locations but for the first: the reader has checked their ids (positive, distinct) and
// that their mapping and functions are defined; only their lines' signs are left, checked here,
// a location with a negative line going to the checker for its message. Checking every location
// again was a thirtieth of a fleet merge. The first goes to the checker: the body starts there
// when nothing came before it.
class PprofChecks : public ProfileSink {
 public:
  PprofChecks(ProfileSink* next, DiagnosticHandler* handler, std::string name)
      : next_(next), checked_(next, handler, std::move(name)) {}
  void OnHeader(const ProfileHeader& header) override { checked_.OnHeader(header); }
  void OnMapping(const Mapping& mapping) override { checked_.OnMapping(mapping); }
  void OnFunction(const Function& function) override { checked_.OnFunction(function); }
  void OnLocation(const Location& location) override {
    if (location_checked_ && LinesNonNegative(location)) {
      next_->OnLocation(location);
      return;
    }
    location_checked_ = true;
    checked_.OnLocation(location);
  }
  void OnStack(const Stack& stack) override { next_->OnStack(stack); }
  void OnSample(const Sample& sample) override { next_->OnSample(sample); }
  void OnEnd() override { checked_.OnEnd(); }

 private:
  static bool LinesNonNegative(const Location& location) {
    for (const Line& line : location.lines) {
      if (line.line < 0 || line.column < 0) return false;
    }
    return true;
  }

  ProfileSink* next_;
  CheckingSink checked_;
  bool location_checked_ = false;
};

int SniffPprof(std::string_view head, bool text) {
  // Plain text never parses as a message whose first field is length-delimited: a printable
  // first byte is a field of wire type 0..7 with a number of 4 to 15, and text rarely goes on
  // to fit. Binary data is the only kind worth decoding.
  return !text && LooksLikeProfileProto(head) ? kLikely : kNotMine;
}

void ReadPprofInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  WholeInput data;
  ReadWholeInput(input, context.max_input_size, "pprof data", &data);
  PprofReadOptions options;
  options.uri = context.uri;
  options.handler = context.warnings;
  DiagnosticHandler throw_on_violation;
  PprofChecks checked(
      sink, context.violations != nullptr ? context.violations : &throw_on_violation, input.name);
  ReadPprof(data.view(), input.name, &checked, options);
}

int SniffLegacyPprof(std::string_view head, bool) {
  return LegacyPprofFormat(head).empty() ? kNotMine : kCertain;
}

[[noreturn]] void RefuseLegacyPprof(Input& input, const ReadContext&, ProfileSink*) {
  throw ProfError(Diagnostic{Rule::kInput, input.name, input.text ? 1u : 0u,
                             LegacyPprofAdvice(LegacyPprofFormat(input.head))});
}

}  // namespace

bool LooksLikeProfileProto(std::string_view head) {
  size_t i = 0;
  int fields = 0;
  while (i < head.size()) {
    uint64_t tag;
    if (!ReadVarint(head, &i, &tag)) break;  // cut by the sniff window
    const uint64_t field = tag >> 3;
    const uint64_t wire = tag & 7;
    if (field < 1 || field > 15) return false;
    const bool length_delimited = field <= 6 || field == 11;
    const bool ok = length_delimited ? wire == 2 : (wire == 0 || (field == 13 && wire == 2));
    if (!ok) return false;
    uint64_t value;
    if (!ReadVarint(head, &i, &value)) break;
    if (wire == 2) {
      if (value > head.size() - i) break;  // runs past the window: fine
      i += static_cast<size_t>(value);
    }
    ++fields;
  }
  return fields > 0;
}

namespace {

void WritePprof(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  PprofWriteOptions options;
  options.keep_samples = context.Has("keep-samples");
  PprofWriter writer(out, options);
  profile.Read(&writer);
}

}  // namespace

const ReaderSpec kPprofReader{"pprof",
                              "a pprof profile (profile.proto)",
                              ReaderShape::kWholeInput,
                              "pprof2prof",
                              SniffPprof,
                              ReadPprofInput,
                              /*checks_itself=*/true};

const ReaderSpec kLegacyPprofReader{
    "legacy-pprof",          "a profile in one of pprof's legacy formats",
    ReaderShape::kStreaming, nullptr,
    SniffLegacyPprof,        RefuseLegacyPprof,
    /*checks_itself=*/true,  /*only_advises=*/true};

const WriterSpec kPprofWriter{
    "pprof",
    "prof2pprof",
    "pprof's profile.proto",
    /*binary=*/true,
    /*gzip=*/true,
    ".pb.gz",
    {
        {"keep-samples", nullptr,
         "one pprof sample per text sample, with its timestamp and duration as numeric labels "
         "proftools.time and proftools.duration (nanoseconds)"},
    },
    WritePprof};

}  // namespace proftools
