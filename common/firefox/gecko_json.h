// The Gecko profile (what Firefox's Gecko profiler writes: MOZ_PROFILER_SHUTDOWN, about:profiling's
// "Save as file" before processing, the Remote Protocol) read into an FxProfile. Versions 3 (the
// oldest the Firefox Profiler upgrades) to 36 (the newest it knew when this was written:
// GECKO_PROFILE_VERSION in src/app-logic/constants.ts); a newer one is refused, naming both
// versions. What the older versions differ in, read as the Firefox Profiler's upgraders read it:
// before 4, `libs` is JSON text and a library's path its `name`; before 5, child processes are
// JSON text among the `threads`; before 11, a frame's category is a bit of Gecko's old list;
// before 14, JS entry labels start "AutoEntryScript ". Tables are {schema, data} with rows read by
// column name; each thread's strings are its own stringTable; frames are its location strings
// ("0x7f.." an address, "name (URL:LINE: COL)[SOURCE]" a JS function, anything else a label), found
// in the libs of their process by address; times are milliseconds since their process's
// meta.startTime. Child processes
// (`processes`, one level) are read like the parent.
#ifndef PROFTOOLS_COMMON_FIREFOX_GECKO_JSON_H_
#define PROFTOOLS_COMMON_FIREFOX_GECKO_JSON_H_

#include "common/firefox/fx_profile.h"

namespace proftools {

inline constexpr int64_t kGeckoMinVersion = 3;
inline constexpr int64_t kGeckoMaxVersion = 36;

// Reads the profile object `object` (the document's root). Throws ProfError.
void ReadGeckoProfile(JsonDocument& json, ondemand::object object, FxProfile* profile);

// The meta fields both formats share (interval, product, categories, sampleUnits) into
// `profile`; false for another key.
bool ReadSharedMeta(JsonDocument& json, std::string_view key, JsonValue field,
                    const std::string& at, FxProfile* profile);

// Parses a frame's location string into `frame` (name, file, line, column, address).
void ParseGeckoLocation(std::string_view location, FxFrame* frame);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_GECKO_JSON_H_
