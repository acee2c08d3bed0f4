#include "common/report/flame/flame_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/report/reports.h"
#include "common/report/value_format.h"
#include "common/report/web/web_assets.h"

namespace proftools {
namespace {

// The number of UTF-8 characters of `text`.
size_t Characters(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// `name` with the arguments of its outermost template argument lists as "..":
// `std::_Rb_tree<int, std::pair<const int, int>>::find` -> `std::_Rb_tree<..>::find`.
// `operator<` and `operator<<` are not lists. The name itself when the brackets do not balance.
std::string ElideTemplateArguments(const std::string& name) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' && depth == 0 && i >= 8 && name.compare(i - 8, 8, "operator") == 0) {
      out += c;
      if (i + 1 < name.size() && name[i + 1] == '<') out += name[++i];
      continue;
    }
    if (c == '<') {
      if (depth++ == 0) out += "<..";
    } else if (c == '>' && depth > 0) {
      if (--depth == 0) out += '>';
    } else if (depth == 0) {
      out += c;
    }
  }
  return depth == 0 ? out : name;
}

}  // namespace

std::string FitFrameLabel(const std::string& name, size_t chars) {
  if (chars < 3) return "";
  if (Characters(name) <= chars) return name;
  // Rows of std::_Rb_tree<...>::... must not all read alike: in a qualified or templated name
  // the template arguments go first, then the middle, and the end (the function's own name)
  // stays. Other names are cut from the right, as flamegraph.pl cuts them.
  const bool qualified =
      name.find("::") != std::string::npos || name.find('<') != std::string::npos;
  const std::string shorter = qualified ? ElideTemplateArguments(name) : name;
  if (Characters(shorter) <= chars) return shorter;
  std::vector<size_t> starts;  // byte offset of each character
  for (size_t i = 0; i < shorter.size(); ++i) {
    if ((static_cast<unsigned char>(shorter[i]) & 0xc0) != 0x80) starts.push_back(i);
  }
  if (!qualified) return shorter.substr(0, starts[chars - 2]) + "..";
  const size_t head = (chars - 2) / 3;  // a third of the room for the start, the rest the end
  const size_t tail = chars - 2 - head;
  return shorter.substr(0, starts[head]) + ".." + shorter.substr(starts[starts.size() - tail]);
}

namespace {

class SvgWriter {
 public:
  SvgWriter(const FlameTree& tree, const FlameSvgOptions& options, ByteSink* out)
      : tree_(tree), options_(options), out_(out) {}

  void Write() {
    const double font = options_.font_size;
    pad_top_ = font * 3 + (options_.subtitle.empty() ? 0 : font * 2) +
               (options_.differential ? font * 2 : 0);  // the legend's line
    pad_bottom_ = font * 2 + 10;
    const int64_t total = tree_.root().value;
    scale_ = total > 0 ? (options_.width - 2 * kPad) / static_cast<double>(total) : 0;
    // As high as the frames wide enough to draw, as flamegraph.pl sizes it: a deep stack of
    // slivers (one sample 200 frames deep) must not leave the first screen blank.
    uint32_t drawn_depth = 0;
    for (const FlameTree::Node& node : tree_.nodes()) {
      if (node.value * scale_ >= options_.min_width)
        drawn_depth = std::max(drawn_depth, node.depth);
    }
    height_ = (drawn_depth + 1) * options_.frame_height + pad_top_ + pad_bottom_;
    if (options_.differential) {
      for (const FlameTree::Node& node : tree_.nodes()) {
        max_change_ = std::max(max_change_, std::fabs(static_cast<double>(node.value) - node.base));
      }
    }
    Header();
    Frames();
    // The script last, so that the frames it works on exist when it runs.
    text_ += "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n";
    text_ += kWebFitNameJs;
    text_ += kWebFlameSvgJs;
    text_ += "]]></script>\n</svg>\n";
    out_->Write(text_);
  }

 private:
  static constexpr double kPad = 10;  // left and right margins, as flamegraph.pl's xpad

  void Header() {
    std::string top, bottom;
    if (!BackgroundColors(options_.background, options_.palette, options_.differential, &top,
                          &bottom)) {
      throw UsageError("--bg-colors " + Printable(options_.background) +
                       ": must be yellow, blue, green, grey or #RRGGBB");
    }
    const std::string width = std::to_string(options_.width);
    const std::string height = FormatFixed(height_, 0);
    const double font = options_.font_size;
    std::string title = options_.title;
    if (title.empty()) title = options_.inverted ? "Icicle Graph" : "Flame Graph";
    text_ +=
        "<?xml version=\"1.0\" standalone=\"no\"?>\n"
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
        "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n";
    if (!options_.notes.empty()) {
      // "--" may not appear in an XML comment.
      std::string notes = EscapeXml(options_.notes);
      for (size_t at; (at = notes.find("--")) != std::string::npos;) notes.replace(at, 2, "- -");
      text_ += "<!-- " + notes + " -->\n";
    }
    // Drawn in a WIDTH x HEIGHT box (data-width for the script) and shown at the window's
    // width, its height following (opened in a browser, the graph fills the window).
    text_ += "<svg version=\"1.1\" width=\"100%\" style=\"height: auto\" data-width=\"" + width +
             "\" viewBox=\"0 0 " + width + " " + height +
             "\" xmlns=\"http://www.w3.org/2000/svg\" data-inverted=\"" +
             (options_.inverted ? "1" : "0") + "\" data-pad=\"" + FormatFixed(kPad, 0) +
             "\" data-char-width=\"" + FormatFixed(font * options_.font_width, 4) +
             "\" data-total=\"" + std::to_string(tree_.root().value) + "\" data-unit=\"" +
             EscapeXml(DisplayFrameName(options_.count_name.empty() ? options_.unit
                                                                    : options_.count_name)) +
             "\" data-name-type=\"" + EscapeXml(DisplayFrameName(options_.name_type)) + "\">\n";
    text_ +=
        "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
        "<stop stop-color=\"" +
        top + "\" offset=\"5%\"/><stop stop-color=\"" + bottom +
        "\" offset=\"95%\"/></linearGradient></defs>\n";
    text_ += "<style type=\"text/css\">\ntext { font-family: " + EscapeXml(options_.font_type) +
             "; font-size: " + FormatFixed(font, 1) +
             "px; }\n#title { font-size: " + FormatFixed(font + 5, 1) + "px; }\n" +
             kWebFlameSvgCss + "</style>\n";
    text_ += "<rect x=\"0\" y=\"0\" width=\"" + width + "\" height=\"" + height +
             "\" fill=\"url(#background)\"/>\n";
    const std::string center = FormatFixed(options_.width / 2.0, 1);
    text_ += "<text id=\"title\" x=\"" + center + "\" y=\"" + FormatFixed(font * 2, 1) + "\">" +
             EscapeXml(DisplayFrameName(title)) + "</text>\n";
    if (!options_.subtitle.empty()) {
      text_ += "<text id=\"subtitle\" x=\"" + center + "\" y=\"" + FormatFixed(font * 4, 1) +
               "\">" + EscapeXml(DisplayFrameName(options_.subtitle)) + "</text>\n";
    }
    if (options_.differential) Legend();
    const std::string bottom_y = FormatFixed(height_ - pad_bottom_ / 2, 1);
    const std::string right_x = FormatFixed(options_.width - kPad - 100, 1);
    text_ += "<text id=\"details\" x=\"" + FormatFixed(kPad, 1) + "\" y=\"" + bottom_y +
             "\"> </text>\n<text id=\"reset\" class=\"button hide\" x=\"" + FormatFixed(kPad, 1) +
             "\" y=\"" + FormatFixed(font * 2, 1) + "\">Reset Zoom</text>\n<text id=\"search\" " +
             "class=\"button\" x=\"" + right_x + "\" y=\"" + FormatFixed(font * 2, 1) +
             "\">Search</text>\n<text id=\"matched\" x=\"" + right_x + "\" y=\"" + bottom_y +
             "\"> </text>\n<g id=\"frames\">\n";
  }

  // What the colours of a differential graph mean, on a line of its own above the frames:
  // swatches of the palette's extremes (DiffColor), and the base compared with.
  void Legend() {
    const double font = options_.font_size;
    const double y = pad_top_ - font * 1.5;  // the text's baseline
    const double box = font;
    double x = kPad;
    text_ += "<g id=\"legend\">";
    const std::pair<const char*, std::string> keys[] = {{"grew", DiffColor(2, 1, 1)},
                                                        {"shrank", DiffColor(1, 2, 1)},
                                                        {"unchanged", DiffColor(1, 1, 1)}};
    for (const auto& [label, color] : keys) {
      text_ += "<rect x=\"" + FormatFixed(x, 1) + "\" y=\"" + FormatFixed(y - box + 2, 1) +
               "\" width=\"" + FormatFixed(box, 1) + "\" height=\"" + FormatFixed(box, 1) +
               "\" style=\"fill: " + color + "; stroke: #999\"/><text x=\"" +
               FormatFixed(x + box + 4, 1) + "\" y=\"" + FormatFixed(y, 1) + "\">" + label +
               "</text>";
      x += box + 4 + (std::char_traits<char>::length(label) + 2) * font * options_.font_width;
    }
    std::string base = "from the base";
    if (!options_.base_name.empty()) base += " " + DisplayFrameName(options_.base_name);
    text_ += "<text x=\"" + FormatFixed(x, 1) + "\" y=\"" + FormatFixed(y, 1) + "\">" +
             EscapeXml(base) + " (the widths are this profile's)</text></g>\n";
  }

  std::string Value(int64_t value) const {
    if (!options_.count_name.empty()) return std::to_string(value) + " " + options_.count_name;
    return FormatValue(value, options_.unit, false);
  }

  // A frame name as shown: its display form, that escaped for XML, and its colour.
  struct Named {
    bool made = false;
    FrameKind kind = FrameKind::kUser;
    std::string display, escaped, color;
  };
  const Named& NamedAs(uint32_t name, FrameKind kind) {
    if (name >= named_.size()) named_.resize(name + 1);
    Named& named = named_[name];
    if (!named.made || named.kind != kind) {
      named.made = true;
      named.kind = kind;
      named.display = DisplayFrameName(tree_.name(name));
      named.escaped = EscapeXml(named.display);
      if (!options_.differential)
        named.color = FrameColor(options_.palette, tree_.name(name), kind);
    }
    return named;
  }

  // The tooltip, escaped for XML: name, value and share, the change for a differential graph,
  // the source.
  // The value's text and share, kept for the next frame: a deep stack's frames have the same
  // value.
  void UpdateValueText(int64_t value) {
    if (value_text_of_ == value) return;
    value_text_ = EscapeXml(Value(value) + " (" + FormatPercent(value, tree_.root().value) + ")");
    value_text_of_ = value;
  }

  void AppendDetails(const FlameTree::Node& node, const Named& named, std::string* text) {
    *text += named.escaped;
    *text += '\n';
    UpdateValueText(node.value);
    *text += value_text_;
    if (options_.differential) {
      int64_t change = node.value;
      SubtractSaturating(&change, node.base);
      AppendEscapedXml(
          text, ", was " + Value(node.base) + " (" + (change > 0 ? "+" : "") + Value(change) + ")");
    }
    const std::string& source = tree_.name(node.source);
    if (!source.empty()) {
      *text += '\n';
      AppendEscapedXml(text, DisplayFrameName(source));
    }
  }

  // The frames' text goes into a buffer of its own, written piece by piece at a pointer after
  // one check of room a frame: std::string's appends (a dozen a frame, each checking its room)
  // were half of the time to draw one stack of 1.5 million frames.
  class FrameText {
   public:
    explicit FrameText(ByteSink* out) : out_(out), data_(new char[kCapacity]) {}
    // Room for `n` bytes at end(), writing out what is there first when there is not.
    char* Room(size_t n) {
      if (used_ + n > kCapacity) {
        Flush();
        if (n > kCapacity) throw ProfError("", "internal error: a frame's text is too long");
      }
      return data_.get() + used_;
    }
    void Commit(char* end) { used_ = static_cast<size_t>(end - data_.get()); }
    void Flush() {
      if (used_ > 0) out_->Write(std::string_view(data_.get(), used_));
      used_ = 0;
    }
    // Room enough for anything but a frame's strings.
    static constexpr size_t kFixed = 512;

   private:
    static constexpr size_t kCapacity = size_t{2} << 20;
    ByteSink* out_;
    std::unique_ptr<char[]> data_;
    size_t used_ = 0;
  };

  static char* Put(char* at, std::string_view text) {
    std::memcpy(at, text.data(), text.size());
    return at + text.size();
  }
  template <size_t N>
  static char* Put(char* at, const char (&literal)[N]) {
    std::memcpy(at, literal, N - 1);
    return at + N - 1;
  }

  // A number's text, kept for the next frame: a deep stack's frames have the same x and width.
  struct FixedText {
    double value = -1;
    int decimals = -1;
    char text[kFixedBytes];
    size_t size = 0;
    std::string_view Of(double v, int d) {
      if (v != value || d != decimals) {
        value = v;
        decimals = d;
        size = static_cast<size_t>(WriteFixed(text, v, d) - text);
      }
      return std::string_view(text, size);
    }
  };

  void Frames() {
    out_->Write(text_);
    text_.clear();
    FrameText frames(out_);
    // Depth first, children in name order; `start` is the value left of each node.
    struct Pending {
      uint32_t node;
      int64_t start;
    };
    std::vector<Pending> stack = {{0, 0}};
    const double chars_per_pixel = 1 / (options_.font_size * options_.font_width);
    const std::string frame_height = std::to_string(options_.frame_height - 1);
    FixedText x_text, width_text, label_x_text;
    std::optional<int64_t> value_of;
    std::string value;  // data-v's, for value_of
    std::string details, label, diff_color;
    while (!stack.empty()) {
      const Pending at = stack.back();
      stack.pop_back();
      const FlameTree::Node& node = tree_.nodes()[at.node];
      const double width = node.value * scale_;
      if (width < options_.min_width) continue;  // nor anything above it: it is no wider
      const double x = kPad + at.start * scale_;
      const double y = options_.inverted
                           ? pad_top_ + node.depth * options_.frame_height
                           : height_ - pad_bottom_ - (node.depth + 1) * options_.frame_height;
      // A name's display form and colour, made once a name: a deep stack repeats a few names
      // a million times (the colour is the name's, and its kind's).
      const Named& named = NamedAs(node.name, node.kind);
      const std::string& name = named.display;
      if (value_of != node.value) {
        value = std::to_string(node.value);
        value_of = node.value;
      }
      // The tooltip: built apart only when it has more than the name and the value.
      const bool plain_details = !options_.differential && tree_.name(node.source).empty();
      details.clear();
      if (plain_details) {
        UpdateValueText(node.value);
      } else {
        AppendDetails(node, named, &details);
      }
      if (options_.differential) diff_color = DiffColor(node.value, node.base, max_change_);
      const std::string_view color = options_.differential ? diff_color : named.color;
      const size_t label_chars = static_cast<size_t>(width * chars_per_pixel);
      // The whole name when it fits (FitFrameLabel would give it whole).
      const bool whole = label_chars >= 3 && label_chars >= name.size();
      if (!whole) {
        label.clear();
        AppendEscapedXml(&label, FitFrameLabel(name, label_chars));
      }
      const std::string_view label_text = whole ? std::string_view(named.escaped) : label;
      char* p =
          frames.Room(FrameText::kFixed + value.size() + details.size() + named.escaped.size() +
                      value_text_.size() + color.size() + frame_height.size() + label_text.size());
      p = Put(p, "<g class=\"f\" data-v=\"");
      p = Put(p, value);
      p = Put(p, "\"><title>");
      if (plain_details) {
        p = Put(p, named.escaped);
        *p++ = '\n';
        p = Put(p, value_text_);
      } else {
        p = Put(p, details);
      }
      p = Put(p, "</title><rect x=\"");
      p = Put(p, x_text.Of(x, 2));
      p = Put(p, "\" y=\"");
      p = WriteFixed(p, y, 1);
      p = Put(p, "\" width=\"");
      p = Put(p, width_text.Of(width, 2));
      p = Put(p, "\" height=\"");
      p = Put(p, frame_height);
      p = Put(p, "\" fill=\"");
      p = Put(p, color);
      p = Put(p, "\" rx=\"2\" ry=\"2\"/><text x=\"");
      p = Put(p, label_x_text.Of(x + 3, 2));
      p = Put(p, "\" y=\"");
      p = WriteFixed(p, y + options_.frame_height / 2.0 + options_.font_size / 3 + 1, 1);
      p = Put(p, "\">");
      p = Put(p, label_text);
      p = Put(p, "</text></g>\n");
      frames.Commit(p);
      // Pushed in reverse so that they come off the stack in name order: each child starts
      // where the ones before it end.
      int64_t child_end = at.start;
      const FlameTree::Children children = tree_.children(at.node);
      for (uint32_t child : children) child_end += tree_.nodes()[child].value;
      for (auto child = children.rbegin(); child != children.rend(); ++child) {
        child_end -= tree_.nodes()[*child].value;
        stack.push_back({*child, child_end});
      }
    }
    frames.Flush();
  }

  const FlameTree& tree_;
  const FlameSvgOptions& options_;
  ByteSink* out_;
  std::string text_;
  std::vector<Named> named_;  // by name index
  std::optional<int64_t> value_text_of_;
  std::string value_text_;  // the tooltip's value and share for value_text_of_, escaped
  double pad_top_ = 0, pad_bottom_ = 0, height_ = 0, scale_ = 0;
  double max_change_ = 0;
};

}  // namespace

void AppendEscapedXml(std::string* out, std::string_view text) {
  size_t plain = 0;  // runs without a character to escape are appended whole
  for (size_t i = 0; i < text.size(); ++i) {
    const char* escaped = nullptr;
    switch (text[i]) {
      case '&':
        escaped = "&amp;";
        break;
      case '<':
        escaped = "&lt;";
        break;
      case '>':
        escaped = "&gt;";
        break;
      case '"':
        escaped = "&quot;";
        break;
      case '\'':
        escaped = "&#39;";
        break;
      default:
        continue;
    }
    out->append(text.data() + plain, i - plain);
    *out += escaped;
    plain = i + 1;
  }
  out->append(text.data() + plain, text.size() - plain);
}

std::string EscapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  AppendEscapedXml(&out, text);
  return out;
}

void WriteFlameSvg(const FlameTree& tree, const FlameSvgOptions& options, ByteSink* out) {
  SvgWriter(tree, options, out).Write();
}

}  // namespace proftools
