// The Firefox Profiler's processed profile (what it saves with "Download" / "Upload", and what
// samply and other converters write) read into an FxProfile. Versions 18 (the first whose
// funcTable's file, line and column are where they belong) to 70 (PROCESSED_PROFILE_VERSION in
// the profiler's src/app-logic/constants.ts when this was written); a newer one is refused,
// naming both versions, an older one sent to the profiler to upgrade. What moved between them
// is read wherever it is, as the profiler's upgraders move it: libs per thread (before 41);
// return addresses not yet nudged (before 38: nudged here); the weight column named `duration`
// (before 29); the tables per thread
// (before 60) or in `shared`; stringArray per thread (before 56) or shared; funcTable.fileName
// (before 58) or funcTable.source into shared.sources; a frame's lib through its resource
// (before 70) or frameTable.lib; stackTable.prefix or prefixOffset (66); samples.time or
// timeDeltas (50). Times are milliseconds since meta.startTime for every thread.
#ifndef PROFTOOLS_COMMON_FIREFOX_PROCESSED_JSON_H_
#define PROFTOOLS_COMMON_FIREFOX_PROCESSED_JSON_H_

#include "common/firefox/fx_profile.h"

namespace proftools {

inline constexpr int64_t kProcessedMinVersion = 18;
inline constexpr int64_t kProcessedMaxVersion = 70;

// Reads the profile object `object` (the document's root). Throws ProfError.
void ReadProcessedProfile(JsonDocument& json, ondemand::object object, FxProfile* profile);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_PROCESSED_JSON_H_
