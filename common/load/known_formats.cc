#include "common/load/known_formats.h"

#include <string>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"

namespace proftools {
namespace {

struct KnownFormat {
  const char* what;    // "gprof's gmon.out"
  const char* advice;  // what to run instead, after "is WHAT: "
  bool (*looks_like)(std::string_view head, bool text);
};

bool GmonOut(std::string_view head, bool) {
  return StartsWith(head, std::string_view("gmon", 4));
}

const KnownFormat kKnownFormats[] = {
    {"gprof's gmon.out", "it is read with its executable: gprof2prof PROGRAM gmon.out", GmonOut},
};

int SniffKnownFormats(std::string_view head, bool text) {
  for (const KnownFormat& format : kKnownFormats) {
    if (format.looks_like(head, text)) return kLikely;
  }
  return kNotMine;
}

[[noreturn]] void RefuseKnownFormat(Input& input, const ReadContext&, ProfileSink*) {
  for (const KnownFormat& format : kKnownFormats) {
    if (format.looks_like(input.head, input.text)) {
      throw ProfError(Diagnostic{Rule::kInput, input.name, input.text ? 1u : 0u,
                                 std::string("is ") + format.what + ": " + format.advice});
    }
  }
  throw ProfError(input.name, "no format proftools reads");
}

}  // namespace

const ReaderSpec kKnownFormatsReader{
    "known-formats",         "a format proftools recognises but does not read yet",
    ReaderShape::kStreaming, nullptr,
    SniffKnownFormats,       RefuseKnownFormat,
    /*checks_itself=*/true,  /*only_advises=*/true};

}  // namespace proftools
