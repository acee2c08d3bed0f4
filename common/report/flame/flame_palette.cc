#include "common/report/flame/flame_palette.h"

#include <algorithm>
#include <cstdlib>

namespace proftools {
namespace {

struct Named {
  const char* name;
  Palette palette;
};

constexpr Named kPalettes[] = {
    {"kind", Palette::kKind},     {"hot", Palette::kHot},       {"mem", Palette::kMem},
    {"io", Palette::kIo},         {"red", Palette::kRed},       {"green", Palette::kGreen},
    {"blue", Palette::kBlue},     {"aqua", Palette::kAqua},     {"yellow", Palette::kYellow},
    {"purple", Palette::kPurple}, {"orange", Palette::kOrange},
};

// Three numbers in [0, 1) from a name: FNV-1a, then bytes of the hash taken apart. The same
// name always gives the same colour, in any graph.
struct Variation {
  double a, b, c;
};

Variation Vary(const std::string& name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  auto part = [&](int shift) { return static_cast<double>((hash >> shift) & 0xffff) / 65536.0; };
  return {part(0), part(16), part(32)};
}

std::string Rgb(double r, double g, double b) {
  auto clamp = [](double v) { return static_cast<int>(std::min(255.0, std::max(0.0, v))); };
  return "rgb(" + std::to_string(clamp(r)) + "," + std::to_string(clamp(g)) + "," +
         std::to_string(clamp(b)) + ")";
}

std::string Hue(Palette palette, const Variation& v) {
  switch (palette) {
    case Palette::kKind:
    case Palette::kHot:
      return Rgb(205 + 50 * v.c, 230 * v.a, 55 * v.b);
    case Palette::kMem:
      return Rgb(0, 190 + 50 * v.b, 210 * v.a);
    case Palette::kIo:
      return Rgb(80 + 60 * v.a, 80 + 60 * v.a, 190 + 55 * v.b);
    case Palette::kRed:
      return Rgb(200 + 55 * v.a, 50 + 80 * v.a, 50 + 80 * v.a);
    case Palette::kGreen:
      return Rgb(50 + 60 * v.a, 200 + 55 * v.a, 50 + 60 * v.a);
    case Palette::kBlue:
      return Rgb(80 + 60 * v.a, 80 + 60 * v.a, 205 + 50 * v.a);
    case Palette::kAqua:
      return Rgb(50 + 60 * v.a, 165 + 55 * v.a, 165 + 55 * v.a);
    case Palette::kYellow:
      return Rgb(175 + 55 * v.a, 175 + 55 * v.a, 50 + 20 * v.a);
    case Palette::kPurple:
      return Rgb(190 + 65 * v.a, 80 + 60 * v.a, 190 + 65 * v.a);
    case Palette::kOrange:
      return Rgb(190 + 65 * v.a, 90 + 65 * v.a, 0);
  }
  return Rgb(0, 0, 0);
}

}  // namespace

bool ParsePalette(const std::string& text, Palette* out) {
  for (const Named& named : kPalettes) {
    if (text == named.name) {
      *out = named.palette;
      return true;
    }
  }
  return false;
}

const char* PaletteNames() {
  return "kind, hot, mem, io, red, green, blue, aqua, yellow, purple or orange";
}

std::string FrameColor(Palette palette, const std::string& name, FrameKind kind) {
  const Variation v = Vary(name);
  if (palette == Palette::kKind) {
    // flamegraph.pl's java palette, by what the profile says rather than by name suffixes:
    // kernel orange, JIT green, inlined aqua, the rest hot.
    switch (kind) {
      case FrameKind::kKernel:
        return Hue(Palette::kOrange, v);
      case FrameKind::kJit:
        return Hue(Palette::kGreen, v);
      case FrameKind::kInlined:
        return Hue(Palette::kAqua, v);
      case FrameKind::kUser:
        break;
    }
  }
  return Hue(palette, v);
}

std::string DiffColor(int64_t value, int64_t base, double max_change) {
  if (value == base || max_change <= 0) return Rgb(255, 255, 255);
  const double change = static_cast<double>(value) - static_cast<double>(base);
  const double depth = 210 * std::min(1.0, std::abs(change) / max_change);
  return change > 0 ? Rgb(255, 255 - depth, 255 - depth) : Rgb(255 - depth, 255 - depth, 255);
}

bool BackgroundColors(const std::string& text, Palette palette, bool differential, std::string* top,
                      std::string* bottom) {
  std::string pick = text;
  if (pick.empty()) {
    pick = differential                                          ? "grey"
           : palette == Palette::kMem || palette == Palette::kIo ? "blue"
                                                                 : "yellow";
  }
  *top = "#eeeeee";
  if (pick == "yellow") {
    *bottom = "#eeeeb0";
  } else if (pick == "blue") {
    *bottom = "#e0e0ff";
  } else if (pick == "green") {
    *bottom = "#e0ffe0";
  } else if (pick == "grey") {
    *top = *bottom = "#f8f8f8";
  } else if (pick.size() == 7 && pick[0] == '#' &&
             pick.find_first_not_of("0123456789abcdefABCDEF", 1) == std::string::npos) {
    *top = *bottom = pick;
  } else {
    return false;
  }
  return true;
}

}  // namespace proftools
