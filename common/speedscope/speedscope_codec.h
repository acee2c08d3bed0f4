// speedscope's file format (https://www.speedscope.app/file-format-schema.json: what speedscope
// exports, and py-spy, rbspy and others write) as the registry sees it.
//
// Each profile of `profiles` becomes the samples of one thread (label `thread` = the profile's
// name), all of one source of type "speedscope":
// - `sampled`: one sample per entry of `samples` (frame indexes, root first), its value its
//   weight; no time (the format has none).
// - `evented`: one sample per stretch between two events during which frames are open, its stack
//   the frames open then, its value the stretch's length; for a time unit, its TIME the stretch's
//   start (`at` in nanoseconds) and its DURATION its length. Stretches with no frame open are no
//   sample (nothing ran). The rules speedscope's importer enforces are errors here, at the event:
//   a close of a frame that is not on top, `at` going backwards (or before startValue), frames
//   still open at the end.
// Units: none -> `weight/count`, the time units -> `time/nanoseconds`, bytes -> `space/bytes`
// (speedscope_units.h), one type per kind in order of first use; the default type that of
// `activeProfileIndex`'s profile. A frame is a function named by `name` in `file` starting at
// `line`, at that line and `col`. The file's `name` and `exporter` become meta speedscope.name
// and speedscope.exporter. Not carried: startValue and endValue (but as bounds checked above).
#ifndef PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_CODEC_H_
#define PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "speedscope", whole input, no converter of its own.
extern const ReaderSpec kSpeedscopeReader;

// kCertain when `head` is a JSON object naming speedscope's schema URL; kLikely with the keys
// "profiles" and "shared".
int SniffSpeedscope(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SPEEDSCOPE_SPEEDSCOPE_CODEC_H_
