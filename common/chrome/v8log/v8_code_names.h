// V8's names of code, as its log and its tick processor's JSON give them, made locations: a JS
// function's "name script:line:column", and V8's own code known by a name; its VM states; the
// header of a profile of its ticks.
#ifndef PROFTOOLS_COMMON_CHROME_V8LOG_V8_CODE_NAMES_H_
#define PROFTOOLS_COMMON_CHROME_V8LOG_V8_CODE_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/model/interner.h"

namespace proftools {

// "spin /app/a.js:8:14": the function spin of /app/a.js, first line 8, at line 8 column 14; an
// empty name is "(anonymous)"; text without a position is a name alone. Names and scripts may
// both hold spaces: the script is the longest of `scripts` (the log's script names) that ends
// the text, else what follows the last space.
uint64_t JsLocation(Interner* interner, std::string_view text,
                    const std::unordered_set<std::string>& scripts);

// A function known by its name only ("Builtin: ArrayMap", "_IO_fwrite").
uint64_t NamedLocation(Interner* interner, std::string name);

// The label vm_state of a tick in V8's state `state` (its StateTag: JS, GC, ... LOGGING; a
// number past them as a number).
Label VmStateLabel(uint64_t state);

// The header of a profile of V8's ticks (source 1, `v8-log`, from `uri`): samples, and cpu
// microseconds by default, at `interval_us` a tick.
ProfileHeader V8TicksHeader(const std::string& uri, int64_t interval_us,
                            std::vector<MetaEntry> meta);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_V8LOG_V8_CODE_NAMES_H_
