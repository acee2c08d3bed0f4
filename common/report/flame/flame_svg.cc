#include "common/report/flame/flame_svg.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
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
    geometry_.pad_top = font * 3 + (options_.subtitle.empty() ? 0 : font * 2) +
                        (options_.differential ? font * 2 : 0);  // the legend's line
    geometry_.pad_bottom = font * 2 + 10;
    const int64_t total = tree_.root().value;
    geometry_.scale = total > 0 ? (options_.width - 2 * kPad) / static_cast<double>(total) : 0;
    // As high as the frames wide enough to draw, as flamegraph.pl sizes it: a deep stack of
    // slivers (one sample 200 frames deep) must not leave the first screen blank.
    uint32_t drawn_depth = 0;
    for (const FlameTree::Node& node : tree_.nodes()) {
      if (node.value * geometry_.scale >= options_.min_width)
        drawn_depth = std::max(drawn_depth, node.depth);
    }
    geometry_.height =
        (drawn_depth + 1) * options_.frame_height + geometry_.pad_top + geometry_.pad_bottom;
    if (options_.differential) {
      for (const FlameTree::Node& node : tree_.nodes()) {
        geometry_.max_change = std::max(
            geometry_.max_change, std::fabs(static_cast<double>(node.value) - tree_.base(node)));
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
    const std::string height = FormatFixed(geometry_.height, 0);
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
    const std::string bottom_y = FormatFixed(geometry_.height - geometry_.pad_bottom / 2, 1);
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
    const double y = geometry_.pad_top - font * 1.5;  // the text's baseline
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

  // Where and how big the frames are drawn: what every frame's text is made from.
  struct Geometry {
    double pad_top = 0, pad_bottom = 0, height = 0, scale = 0, max_change = 0;
  };

  // A frame to draw: its node and the value left of it (its x).
  struct Drawn {
    uint32_t node;
    int64_t start;
  };

  // Text of frames, written piece by piece at a pointer after one check of room a frame:
  // std::string's appends (a dozen a frame, each checking its room) were half of the time to
  // draw one stack of 1.5 million frames. It grows as needed (a batch of frames at a time).
  class FrameText {
   public:
    FrameText() : data_(new char[kInitial]), capacity_(kInitial) {}
    // Room for `n` bytes at end().
    char* Room(size_t n) {
      if (used_ + n > capacity_) {
        const size_t capacity = std::max(capacity_ * 2, used_ + n);
        std::unique_ptr<char[]> data(new char[capacity]);
        std::memcpy(data.get(), data_.get(), used_);
        data_ = std::move(data);
        capacity_ = capacity;
      }
      return data_.get() + used_;
    }
    void Commit(char* end) { used_ = static_cast<size_t>(end - data_.get()); }
    char* end() { return data_.get() + used_; }
    std::string_view view() const { return std::string_view(data_.get(), used_); }
    void Clear() { used_ = 0; }
    // Room enough for anything but a frame's strings.
    static constexpr size_t kFixed = 512;

   private:
    static constexpr size_t kInitial = size_t{2} << 20;
    std::unique_ptr<char[]> data_;
    size_t capacity_;
    size_t used_ = 0;
  };

  // Writes frames' text. Its caches (names' display forms and colours, the last value's and
  // numbers' text) are its own, so that formatters on two threads write the same bytes as one.
  class FrameFormatter {
   public:
    FrameFormatter(const FlameTree& tree, const FlameSvgOptions& options, const Geometry& geometry)
        : tree_(tree), options_(options), geometry_(geometry) {
      chars_per_pixel_ = 1 / (options_.font_size * options_.font_width);
      frame_height_ = std::to_string(options_.frame_height - 1);
      // A frame's y and its label's, in tenths, from its depth in integers where every term is
      // a whole number of tenths (the defaults: frame height 16, font 12): a million frames' y
      // coordinates written from doubles were a fifth of the time to draw them.
      label_offset_ = options_.frame_height / 2.0 + options_.font_size / 3 + 1;
      const double y_origin =
          options_.inverted ? geometry_.pad_top : geometry_.height - geometry_.pad_bottom;
      origin_tenths_ = Tenths(y_origin);
      height_tenths_ = Tenths(options_.frame_height);
      label_tenths_ = Tenths(label_offset_);
      integer_y_ = origin_tenths_ && height_tenths_ && label_tenths_;
    }

    void Format(const Drawn* first, const Drawn* last, FrameText* frames) {
      for (const Drawn* at = first; at != last; ++at) Frame(*at, frames);
    }

   private:
    std::string Value(int64_t value) const {
      if (!options_.count_name.empty()) return std::to_string(value) + " " + options_.count_name;
      return FormatValue(value, options_.unit, false);
    }

    // A frame name as shown: its display form, that escaped for XML, and its colour.
    struct Named {
      bool made = false;
      FrameKind kind = FrameKind::kUser;
      std::string display, escaped, color;
      // The whole text of this name's last frame drawn in a run (see Frame), but for its two
      // y coordinates: text[0, y_at) y text[y_at, label_y_at) label's y text[label_y_at, end).
      struct Run {
        bool made = false;
        int64_t value = 0, start = 0;  // what the text was made for: same value, same x
        std::string text;
        size_t y_at = 0, label_y_at = 0;
      } run;
    };
    Named& NamedAs(uint32_t name, FrameKind kind) {
      if (name >= named_.size()) named_.resize(name + 1);
      Named& named = named_[name];
      if (!named.made || named.kind != kind) {
        named.made = true;
        named.kind = kind;
        named.run.made = false;
        named.display = DisplayFrameName(tree_.name(name));
        named.escaped = EscapeXml(named.display);
        if (!options_.differential)
          named.color = FrameColor(options_.palette, tree_.name(name), kind);
      }
      return named;
    }

    // The value's text and share, kept for the next frame: a deep stack's frames have the same
    // value.
    void UpdateValueText(int64_t value) {
      if (value_text_of_ == value) return;
      value_text_ = EscapeXml(Value(value) + " (" + FormatPercent(value, tree_.root().value) + ")");
      value_text_of_ = value;
    }

    // The tooltip, escaped for XML: name, value and share, the change for a differential graph,
    // the source.
    void AppendDetails(const FlameTree::Node& node, const Named& named, std::string* text) {
      *text += named.escaped;
      *text += '\n';
      UpdateValueText(node.value);
      *text += value_text_;
      if (options_.differential) {
        int64_t change = node.value;
        SubtractSaturating(&change, tree_.base(node));
        AppendEscapedXml(text, ", was " + Value(tree_.base(node)) + " (" + (change > 0 ? "+" : "") +
                                   Value(change) + ")");
      }
      const std::string& source = tree_.name(node.source);
      if (!source.empty()) {
        *text += '\n';
        AppendEscapedXml(text, DisplayFrameName(source));
      }
    }

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

    // `value` in tenths when it is a whole number of them (to a millionth), not negative and
    // not huge.
    static std::optional<int64_t> Tenths(double value) {
      const double tenths = std::round(value * 10);
      if (!(tenths >= 0 && tenths < 1e15) || std::fabs(value * 10 - tenths) > 1e-6) {
        return std::nullopt;
      }
      return static_cast<int64_t>(tenths);
    }

    void Frame(const Drawn& at, FrameText* frames) {
      const FlameTree::Node& node = tree_.nodes()[at.node];
      const double width = node.value * geometry_.scale;
      const double x = kPad + at.start * geometry_.scale;
      const double y = options_.inverted ? geometry_.pad_top + node.depth * options_.frame_height
                                         : geometry_.height - geometry_.pad_bottom -
                                               (node.depth + 1) * options_.frame_height;
      // A name's display form and colour, made once a name: a deep stack repeats a few names
      // a million times (the colour is the name's, and its kind's).
      Named& named = NamedAs(node.name, node.kind);
      const std::string& name = named.display;
      // The tooltip: built apart only when it has more than the name and the value.
      const bool plain_details = !options_.differential && tree_.name(node.source).empty();
      int64_t y_tenths = -1;
      if (integer_y_) {
        y_tenths = options_.inverted
                       ? *origin_tenths_ + int64_t{node.depth} * *height_tenths_
                       : *origin_tenths_ - (int64_t{node.depth} + 1) * *height_tenths_;
      }
      // A frame drawn with the value and x its name was last drawn with in a run: that text
      // again with this frame's y (a deep stack's frames differ in y alone; a dozen copies a
      // frame were most of the time to draw 1.5 million of them).
      const bool runs = plain_details && y_tenths >= 0;
      const bool in_run = node.value == run_value_ && at.start == run_start_;
      run_value_ = node.value;
      run_start_ = at.start;
      if (runs && named.run.made && named.run.value == node.value && named.run.start == at.start) {
        const std::string& text = named.run.text;
        char* p = frames->Room(text.size() + 2 * kFixedBytes);
        p = Put(p, std::string_view(text.data(), named.run.y_at));
        p = WriteTenths(p, static_cast<uint64_t>(y_tenths));
        p = Put(p, std::string_view(text.data() + named.run.y_at,
                                    named.run.label_y_at - named.run.y_at));
        p = WriteTenths(p, static_cast<uint64_t>(y_tenths + *label_tenths_));
        p = Put(p, std::string_view(text.data() + named.run.label_y_at,
                                    text.size() - named.run.label_y_at));
        frames->Commit(p);
        return;
      }
      if (value_of_ != node.value) {
        value_ = std::to_string(node.value);
        value_of_ = node.value;
      }
      details_.clear();
      if (plain_details) {
        UpdateValueText(node.value);
      } else {
        AppendDetails(node, named, &details_);
      }
      if (options_.differential) {
        diff_color_ = DiffColor(node.value, tree_.base(node), geometry_.max_change);
      }
      const std::string_view color = options_.differential ? diff_color_ : named.color;
      const size_t label_chars = static_cast<size_t>(width * chars_per_pixel_);
      // The whole name when it fits (FitFrameLabel would give it whole).
      const bool whole = label_chars >= 3 && label_chars >= name.size();
      if (!whole) {
        label_.clear();
        AppendEscapedXml(&label_, FitFrameLabel(name, label_chars));
      }
      const std::string_view label_text = whole ? std::string_view(named.escaped) : label_;
      char* p = frames->Room(FrameText::kFixed + value_.size() + details_.size() +
                             named.escaped.size() + value_text_.size() + color.size() +
                             frame_height_.size() + label_text.size());
      p = Put(p, "<g class=\"f\" data-v=\"");
      p = Put(p, value_);
      p = Put(p, "\"><title>");
      if (plain_details) {
        p = Put(p, named.escaped);
        *p++ = '\n';
        p = Put(p, value_text_);
      } else {
        p = Put(p, details_);
      }
      p = Put(p, "</title><rect x=\"");
      p = Put(p, x_text_.Of(x, 2));
      p = Put(p, "\" y=\"");
      char* const y_at = p;
      p = y_tenths >= 0 ? WriteTenths(p, static_cast<uint64_t>(y_tenths)) : WriteFixed(p, y, 1);
      char* const y_end = p;
      p = Put(p, "\" width=\"");
      p = Put(p, width_text_.Of(width, 2));
      p = Put(p, "\" height=\"");
      p = Put(p, frame_height_);
      p = Put(p, "\" fill=\"");
      p = Put(p, color);
      p = Put(p, "\" rx=\"2\" ry=\"2\"/><text x=\"");
      p = Put(p, label_x_text_.Of(x + 3, 2));
      p = Put(p, "\" y=\"");
      char* const label_y_at = p;
      p = y_tenths >= 0 ? WriteTenths(p, static_cast<uint64_t>(y_tenths + *label_tenths_))
                        : WriteFixed(p, y + label_offset_, 1);
      char* const label_y_end = p;
      p = Put(p, "\">");
      p = Put(p, label_text);
      p = Put(p, "</text></g>\n");
      if (runs && in_run) {  // kept for this name's next frame in the run
        Named::Run& run = named.run;
        run.made = true;
        run.value = node.value;
        run.start = at.start;
        run.text.assign(frames->end(), y_at);
        run.y_at = run.text.size();
        run.text.append(y_end, label_y_at);
        run.label_y_at = run.text.size();
        run.text.append(label_y_end, p);
      }
      frames->Commit(p);
    }

    const FlameTree& tree_;
    const FlameSvgOptions& options_;
    const Geometry& geometry_;
    double chars_per_pixel_ = 0, label_offset_ = 0;
    std::string frame_height_;
    std::optional<int64_t> origin_tenths_, height_tenths_, label_tenths_;
    bool integer_y_ = false;
    std::vector<Named> named_;  // by name index
    std::optional<int64_t> value_text_of_;
    std::string value_text_;  // the tooltip's value and share for value_text_of_, escaped
    std::optional<int64_t> value_of_;
    std::string value_;                        // data-v's, for value_of_
    int64_t run_value_ = -1, run_start_ = -1;  // the frame before's (a run: the same again)
    std::string details_, label_, diff_color_;
    FixedText x_text_, width_text_, label_x_text_;
  };

  // The frames to draw in drawing order, a batch at a time: depth first, children in name
  // order, each starting where the ones before it end. Empty when all are given.
  class DrawOrder {
   public:
    DrawOrder(const FlameTree& tree, const Geometry& geometry, double min_width)
        : tree_(tree), geometry_(geometry), min_width_(min_width), pending_{{0, 0}} {}

    void Next(size_t count, std::vector<Drawn>* batch) {
      batch->clear();
      const std::vector<FlameTree::Node>& nodes = tree_.nodes();
      while (!pending_.empty() && batch->size() < count) {
        Drawn at = pending_.back();
        pending_.pop_back();
        // Up an only child at once, where it starts: a deep stack is a chain of them.
        for (;;) {
          if (nodes[at.node].value * geometry_.scale < min_width_) {
            break;  // nor anything above it: it is no wider
          }
          batch->push_back(at);
          const FlameTree::Children children = tree_.children(at.node);
          if (children.size() == 1) {
            at.node = children[0];
            if (batch->size() < count) continue;
            pending_.push_back(at);
            break;
          }
          // Pushed in reverse so that they come off the stack in name order.
          int64_t child_end = at.start;
          for (uint32_t child : children) child_end += nodes[child].value;
          for (auto child = children.rbegin(); child != children.rend(); ++child) {
            child_end -= nodes[*child].value;
            pending_.push_back({*child, child_end});
          }
          break;
        }
      }
    }

   private:
    const FlameTree& tree_;
    const Geometry& geometry_;
    double min_width_;
    std::vector<Drawn> pending_;
  };

  void Frames() {
    out_->Write(text_);
    text_.clear();
    DrawOrder order(tree_, geometry_, options_.min_width);
    // A graph of a million frames writes hundreds of megabytes: its batches are formatted on
    // two threads while this one writes them out in order (the same bytes as one thread).
    const bool threads = options_.threads == 0 ? tree_.nodes().size() >= kParallelNodes &&
                                                     std::thread::hardware_concurrency() > 1
                                               : options_.threads > 1;
    if (threads && FramesOnThreads(&order)) return;
    FrameFormatter formatter(tree_, options_, geometry_);
    FrameText frames;
    std::vector<Drawn> batch;
    for (order.Next(kBatch, &batch); !batch.empty(); order.Next(kBatch, &batch)) {
      frames.Clear();
      formatter.Format(batch.data(), batch.data() + batch.size(), &frames);
      out_->Write(frames.view());
    }
  }

  // Batches in a ring of slots: this thread fills a free slot with the next batch's frames, a
  // formatter thread writes its text, this thread writes the oldest slot out once its text is
  // made. Memory: kSlots batches' text. False, with nothing taken from `order`, when no thread
  // could be started (the caller formats the frames itself).
  bool FramesOnThreads(DrawOrder* order) {
    struct Slot {
      std::vector<Drawn> frames;
      FrameText text;
      bool formatted = false;
    };
    std::vector<Slot> slots(kSlots);
    std::mutex mutex;
    std::condition_variable work_ready, text_ready;
    std::deque<size_t> queue;  // slots to format, in order
    bool stop = false;
    auto work = [&] {
      FrameFormatter formatter(tree_, options_, geometry_);
      std::unique_lock<std::mutex> lock(mutex);
      for (;;) {
        work_ready.wait(lock, [&] { return stop || !queue.empty(); });
        if (queue.empty()) return;
        Slot& slot = slots[queue.front()];
        queue.pop_front();
        lock.unlock();
        slot.text.Clear();
        formatter.Format(slot.frames.data(), slot.frames.data() + slot.frames.size(), &slot.text);
        lock.lock();
        slot.formatted = true;
        text_ready.notify_all();
      }
    };
    std::vector<std::thread> threads;
    // Joined however this ends (a failed write throws).
    struct Joiner {
      std::mutex& mutex;
      bool& stop;
      std::condition_variable& work_ready;
      std::vector<std::thread>& threads;
      ~Joiner() {
        {
          std::lock_guard<std::mutex> lock(mutex);
          stop = true;
        }
        work_ready.notify_all();
        for (std::thread& thread : threads) thread.join();
      }
    } joiner{mutex, stop, work_ready, threads};
    for (int i = 0; i < 2; ++i) {
      try {
        threads.emplace_back(work);
      } catch (const std::system_error&) {
        break;  // the threads there are do the work; with none, the caller does
      }
    }
    if (threads.empty()) return false;
    size_t filled = 0, written = 0;  // batches handed out and written
    bool more = true;
    while (more || written < filled) {
      // Fill every free slot, then write the oldest.
      while (more && filled - written < kSlots) {
        Slot& slot = slots[filled % kSlots];
        order->Next(kBatch, &slot.frames);
        if (slot.frames.empty()) {
          more = false;
          break;
        }
        std::lock_guard<std::mutex> lock(mutex);
        slot.formatted = false;
        queue.push_back(filled % kSlots);
        ++filled;
        work_ready.notify_one();
      }
      if (written == filled) break;
      Slot& oldest = slots[written % kSlots];
      {
        std::unique_lock<std::mutex> lock(mutex);
        text_ready.wait(lock, [&] { return oldest.formatted; });
      }
      out_->Write(oldest.text.view());
      ++written;
    }
    return true;
  }

  static constexpr size_t kBatch = 8192;            // frames
  static constexpr size_t kSlots = 4;               // batches in flight on threads
  static constexpr size_t kParallelNodes = 200000;  // fewer: one thread

  const FlameTree& tree_;
  const FlameSvgOptions& options_;
  ByteSink* out_;
  std::string text_;
  Geometry geometry_;
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
