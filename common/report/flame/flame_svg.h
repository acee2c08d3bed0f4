// A flame graph as one SVG file, drawn as flamegraph.pl draws it (the same layout, sizes and
// palettes), with the script for hover details, click to zoom, search and reset embedded
// (common/report/web/flame-svg.js), so that it works opened from disk with no network. As high
// as the frames wide enough to draw (as flamegraph.pl); drawn in a `width` x height viewBox and
// shown at the window's width (data-width gives the script the drawing's width).
#ifndef PROFTOOLS_COMMON_REPORT_FLAME_FLAME_SVG_H_
#define PROFTOOLS_COMMON_REPORT_FLAME_FLAME_SVG_H_

#include <string>
#include <string_view>

#include "common/io/byte_stream.h"
#include "common/report/flame/flame_palette.h"
#include "common/report/flame/flame_tree.h"

namespace proftools {

struct FlameSvgOptions {
  std::string title;     // empty: "Flame Graph", or "Icicle Graph" when inverted
  std::string subtitle;  // a line under the title; empty: none
  int width = 1200;      // pixels, as flamegraph.pl's --width
  int frame_height = 16;
  double font_size = 12;
  std::string font_type = "Verdana";
  double font_width = 0.59;  // average character width, in font sizes
  double min_width = 0.1;    // pixels: narrower frames are not drawn (their value stays in the
                             // parent's width), as flamegraph.pl's --minwidth
  std::string unit;          // of the drawn value type, for FormatValue
  std::string count_name;    // when set, values are written as exact integers followed by it
  std::string name_type = "Function:";  // what the details line calls a frame
  Palette palette = Palette::kKind;
  std::string background;     // --bg-colors text ("" = the palette's), see BackgroundColors
  bool inverted = false;      // an icicle graph: the root on top
  bool differential = false;  // colour by value - base (FlameTree built with a base)
  std::string base_name;      // differential: what the base is (its files), for the legend
  std::string notes;          // an XML comment at the top (flamegraph.pl's --notes)
  // Frames formatted on two threads besides the writing one (the same bytes): 0 when the
  // graph is large (200,000 nodes) and the machine has two cores, 1 never, 2 always.
  int threads = 0;
};

// Writes the SVG. Throws UsageError for a background that BackgroundColors refuses.
void WriteFlameSvg(const FlameTree& tree, const FlameSvgOptions& options, ByteSink* out);

// `name` cut to fit `chars` characters (UTF-8 characters, cut between them); "" when fewer than
// 3 fit. A name with `::` or `<` loses its template arguments first (`std::_Rb_tree<..>::find`),
// then its middle (`std::..:_M_insert_unique`): the end, the function's own name, stays, where
// flamegraph.pl cuts from the right and rows of long C++ names read alike. Other names are cut
// from the right ("main_lo..").
std::string FitFrameLabel(const std::string& name, size_t chars);

// `text` with &, <, >, " and ' escaped for XML and HTML.
std::string EscapeXml(const std::string& text);
// The same, appended to `out`.
void AppendEscapedXml(std::string* out, std::string_view text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_FLAME_FLAME_SVG_H_
