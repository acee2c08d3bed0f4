// Frame colours for flame graphs: flamegraph.pl's palettes (hot, mem, io and the plain hues),
// and `kind`, which colours by what the profile knows of a frame's code (kernel, JIT, inlined,
// user) instead of guessing from its name. Colours come from a hash of the name, never from a
// random number, so that the same profile gives the same file and a function keeps its colour
// between graphs (flamegraph.pl's --hash, always on).
#ifndef PROFTOOLS_COMMON_REPORT_FLAME_FLAME_PALETTE_H_
#define PROFTOOLS_COMMON_REPORT_FLAME_FLAME_PALETTE_H_

#include <cstdint>
#include <string>

#include "common/report/frames.h"

namespace proftools {

enum class Palette {
  kKind,
  kHot,
  kMem,
  kIo,
  kRed,
  kGreen,
  kBlue,
  kAqua,
  kYellow,
  kPurple,
  kOrange
};

// Parses a --colors name; false when it is none.
bool ParsePalette(const std::string& text, Palette* out);
// The names ParsePalette takes, for messages and --help.
const char* PaletteNames();

// "rgb(R,G,B)" for a frame.
std::string FrameColor(Palette palette, const std::string& name, FrameKind kind);

// FlameGraph's differential colouring: red where `value` grew from `base`, blue where it shrank,
// white when equal, deeper as the change nears `max_change` (the largest |value - base| of any
// frame).
std::string DiffColor(int64_t value, int64_t base, double max_change);

// The background gradient's two stops for --bg-colors (yellow, blue, green, grey or #RRGGBB);
// false when `text` is none of these. An empty text picks the palette's own (blue for mem and
// io, grey for differential graphs, yellow otherwise).
bool BackgroundColors(const std::string& text, Palette palette, bool differential, std::string* top,
                      std::string* bottom);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_FLAME_FLAME_PALETTE_H_
