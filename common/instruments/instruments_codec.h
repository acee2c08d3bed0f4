// Xcode Instruments' "deep copy" of a call tree (Time Profiler's or Allocations'), the text
// Edit > Deep Copy puts on the clipboard and speedscope imports: a header line of tab-separated
// column names, then a row per call-tree node, its depth the leading spaces of its Symbol Name.
// What a profile gets from one:
// - one source of type "instruments" (its uri the path);
// - the value type `time` (nanoseconds) from the column Weight (or Running Time: "1.50 s",
//   "12.0 ms", "250 µs", each with its percentage after it), or `bytes` (bytes) from Bytes Used
//   ("1.50 MB": powers of 1024, as Instruments counts them);
// - a stack per node with a value of its own (its weight less its children's), the node
//   innermost under its ancestors; a frame is the Symbol Name (Source Path its file, when there
//   is that column).
// Decimals are kept: "1.50 s" is 1.5 seconds (speedscope reads the integer part only).
#ifndef PROFTOOLS_COMMON_INSTRUMENTS_INSTRUMENTS_CODEC_H_
#define PROFTOOLS_COMMON_INSTRUMENTS_INSTRUMENTS_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "instruments", streaming (memory grows with the open nodes and the
// distinct stacks).
extern const ReaderSpec kInstrumentsReader;

// kCertain when `head`'s first line is a tab-separated header with Symbol Name and Weight,
// Running Time or Bytes Used.
int SniffInstruments(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_INSTRUMENTS_INSTRUMENTS_CODEC_H_
