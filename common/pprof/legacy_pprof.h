// Recognising the legacy profile formats pprof still reads (gperftools' binary CPU profiles,
// heapz/growthz/contentionz/threadz text, Go's debug=1 text profiles, Java's heapz and
// contentionz) so that a program can name the format and say how to convert it, instead of
// refusing it as a broken prof text or protobuf. The rules follow pprof's own
// (profile/legacy_profile.go and legacy_java_profile.go: parseLegacy tries them in this order).
#ifndef PROFTOOLS_COMMON_PPROF_LEGACY_PPROF_H_
#define PROFTOOLS_COMMON_PPROF_LEGACY_PPROF_H_

#include <string>
#include <string_view>

namespace proftools {

// What `head` (the first bytes of the decompressed content) is, as a noun phrase ("a gperftools
// CPU profile (binary)"), or "" when it is none of pprof's legacy formats.
std::string LegacyPprofFormat(std::string_view head);

// The message for an input in legacy format `format` (from LegacyPprofFormat): what it is and
// the pprof command that converts it to profile.proto, which every proftools program reads.
std::string LegacyPprofAdvice(const std::string& format);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_LEGACY_PPROF_H_
