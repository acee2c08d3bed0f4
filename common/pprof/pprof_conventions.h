// How prof2pprof and pprof2prof carry what pprof's profile.proto has no field for
// (formats/prof-text.md §8). Both directions use these names, so a round trip is exact.
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_CONVENTIONS_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_CONVENTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/model.h"

namespace proftools {

// A pprof comment that starts with this carries a prof text record: `meta KEY VALUE`,
// `source ID TYPE URI TIME`, or `comment TEXT` (a text comment that itself starts with the
// prefix, so that it is not mistaken for one of the others). The rest is prof text tokens.
inline constexpr std::string_view kCommentPrefix = "proftext: ";

// Numeric sample labels (unit nanoseconds for the times) that carry sample fields; every one
// starts with kConventionPrefix.
inline constexpr std::string_view kConventionPrefix = "proftools.";
inline constexpr const char* kSourceLabel = "proftools.source";
inline constexpr const char* kTimeLabel = "proftools.time";
inline constexpr const char* kDurationLabel = "proftools.duration";
// A zero-valued pprof sample with this label (value 1) carries a stack no text sample uses.
inline constexpr const char* kUnusedStackLabel = "proftools.unused_stack";

// Meta key naming the placeholder pprof2prof gave functions whose pprof name was empty (prof
// text names are non-empty); prof2pprof writes such names back as empty.
inline constexpr const char* kEmptyNameMeta = "proftools.pprof.empty_name";
inline constexpr const char* kEmptyNamePlaceholder = "<unnamed>";

// The source type of a profile read from pprof. A profile whose only source is of this type
// and has no time needs no source comment: pprof2prof recreates it from the file.
inline constexpr const char* kPprofSourceType = "pprof";

// kPerfSourceType (common/model/model.h): prof2pprof puts the program's mapping first for
// profiles whose every source is of that type (perf script names no main binary).

// A text record carried in a pprof comment.
struct CarriedRecord {
  enum Kind { kNone, kMeta, kSource, kComment } kind = kNone;
  MetaEntry meta;
  Source source;
  std::string comment;
};

std::string CarryMeta(const MetaEntry& meta);
std::string CarrySource(const Source& source);
// A text comment as a pprof comment: unchanged, unless it starts with kCommentPrefix.
std::string CarryComment(const std::string& comment);
// Reads a pprof comment back: kNone when it is an ordinary comment (or a malformed carried
// record, which is then kept as an ordinary comment).
CarriedRecord ParseCarried(std::string_view comment);

// True when pprof (run without -symbolize=none) would rewrite a function whose system_name
// equals its name: a mangled-looking name (it tries to demangle it), or one its "looks like
// demangled C++" heuristic strips of (...) and <...> groups (internal/symbolizer Demangle,
// looksLikeDemangledCPlusPlus and removeMatching). <GC> and <Anonymous> would become "".
bool PprofWouldRewriteName(std::string_view name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_CONVENTIONS_H_
