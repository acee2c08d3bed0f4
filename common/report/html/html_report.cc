#include "common/report/html/html_report.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/base/id_table.h"
#include "common/base/json_string.h"
#include "common/base/saturating.h"
#include "common/base/sha256.h"
#include "common/base/text_syntax.h"
#include "common/filter/collapse_recursion.h"
#include "common/model/stack_table.h"
#include "common/report/flame/flame_svg.h"
#include "common/report/html/html_graphs.h"
#include "common/report/reports.h"
#include "common/report/source/source_files.h"
#include "common/report/source/source_lines.h"
#include "common/report/web/web_assets.h"

namespace proftools {
namespace {

// Numbers packed into a JSON string (report.js's `packed`): the 88 printable ASCII characters
// from '#' but '&', '<', '>' and '\' (none needs an escape in JSON or inside <script>). A number
// is its base-44 digits, least significant first, every digit but the last written as 44 +
// digit; a signed number is zigzagged first (0, -1, 1, -2 ... as 0, 1, 2, 3 ...); a frame index
// is `digits` base-88 digits, most significant first. A stack of 40 frames of 5,000 costs 81
// characters instead of about 200 in JSON arrays.
class PackedWriter {
 public:
  static char Digit(unsigned value) {
    static const std::string kDigits = [] {
      std::string digits;
      for (int c = 35; c < 127; ++c) {
        if (c != '&' && c != '<' && c != '>' && c != '\\') digits += static_cast<char>(c);
      }
      return digits;
    }();
    return kDigits[value];
  }
  void Number(uint64_t value) {
    while (value >= 44) {
      text_ += Digit(44 + value % 44);
      value /= 44;
    }
    text_ += Digit(static_cast<unsigned>(value));
  }
  void Signed(int64_t value) {
    const uint64_t bits = static_cast<uint64_t>(value);
    Number(value < 0 ? ~bits * 2 + 1 : bits * 2);
  }
  void Frame(uint64_t index, int digits) {
    for (int d = digits - 1; d >= 0; --d) {
      uint64_t digit = index;
      for (int k = 0; k < d; ++k) digit /= 88;
      text_ += Digit(static_cast<unsigned>(digit % 88));
    }
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

uint64_t Gcd(uint64_t a, uint64_t b) {
  while (b != 0) {
    const uint64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// The most sums per stack and brush bin a page holds (see Timeline): about 3 MB of the page.
constexpr size_t kBrushBudget = 500000;

const char* KindName(FrameKind kind) {
  switch (kind) {
    case FrameKind::kKernel:
      return "kernel";
    case FrameKind::kJit:
      return "jit";
    case FrameKind::kInlined:
      return "inlined";
    case FrameKind::kUser:
      break;
  }
  return "user";
}

// The profile as the page's script reads it: frames by name, stacks (root first) as frame
// indexes with their sums per type, identical frame sequences merged.
class DataWriter {
 public:
  // `warnings` gets one line per source file whose text the page embeds.
  DataWriter(const StackTotals& totals, const HtmlReportOptions& options,
             std::vector<std::string>* warnings)
      : totals_(totals), options_(options), warnings_(warnings) {}

  std::string Json() {
    Collect();
    const ProfileHeader& header = totals_.header();
    std::string json = "{\"types\":[";
    for (size_t i = 0; i < header.types.size(); ++i) {
      json += (i ? "," : "") + std::string("{\"type\":") + PageJsonString(header.types[i].type) +
              ",\"unit\":" + PageJsonString(header.types[i].unit) + "}";
    }
    json += "],\"valueIndex\":" + std::to_string(options_.value_index) + ",\"totals\":[";
    for (size_t i = 0; i < totals_.total_values().size(); ++i) {
      json += (i ? "," : "") + std::to_string(totals_.total_values()[i]);
    }
    json += "],\"samples\":" + std::to_string(totals_.total_samples()) +
            ",\"filters\":" + PageJsonString(options_.filter_description) + ",\"sources\":[";
    for (size_t i = 0; i < header.sources.size(); ++i) {
      const Source& source = header.sources[i];
      json += (i ? "," : "") + std::string("[") + PageJsonString(source.type) + "," +
              PageJsonString(source.uri) + "," +
              (source.time_nanos ? std::to_string(*source.time_nanos) : "null") + "]";
    }
    json += "],\"meta\":[";
    for (size_t i = 0; i < header.meta.size(); ++i) {
      json += (i ? "," : "") + std::string("[") + PageJsonString(header.meta[i].key) + "," +
              PageJsonString(header.meta[i].value) + "]";
    }
    json += "],\"comments\":[";
    for (size_t i = 0; i < header.comments.size(); ++i) {
      json += (i ? "," : "") + PageJsonString(header.comments[i]);
    }
    json += "],\"frames\":[";
    for (size_t i = 0; i < names_.size(); ++i) {
      json += (i ? "," : "") + std::string("[") + PageJsonString(DisplayFrameName(names_[i])) +
              ",\"" + KindName(kinds_[i]) + "\"," + PageJsonString(DisplayFrameName(sources_[i])) +
              "]";
    }
    json += "],\"frameDigits\":" + std::to_string(FrameDigits()) +
            ",\"stackCount\":" + std::to_string(stack_count());
    ComputeScales();
    json += ",\"scales\":[";
    for (size_t t = 0; t < scales_.size(); ++t) {
      json += (t ? "," : "") + std::to_string(scales_[t]);
    }
    json += "]";
    // Stacks, in the packed numbers (PackedWriter): each its length and frames (root first);
    // its values per type; the frames the sequence view reads (0 when they are the same).
    PackedWriter frames, values, seq, base;
    const size_t types = header.types.size();
    for (size_t i = 0; i < stack_count(); ++i) {
      frames.Number(stack_start_[i + 1] - stack_start_[i]);
      for (size_t f = stack_start_[i]; f < stack_start_[i + 1]; ++f) {
        frames.Frame(stack_frames_[f], FrameDigits());
      }
      Values(values_.data() + i * types, types, &values);
      seq.Number(seq_start_[i + 1] - seq_start_[i]);
      for (size_t f = seq_start_[i]; f < seq_start_[i + 1]; ++f) {
        seq.Frame(seq_frames_[f], FrameDigits());
      }
      if (diff_) Values(base_values_[i], &base);
    }
    json += ",\"stackFrames\":\"" + frames.text() + "\",\"stackValues\":\"" + values.text() +
            "\",\"stackSeq\":\"" + seq.text() + "\"";
    if (diff_) {
      json += ",\"diff\":true,\"base\":" + PageJsonString(options_.base_name) +
              ",\"stackBase\":\"" + base.text() + "\"";
    }
    if (!diff_ && options_.timeline != nullptr && options_.timeline->timed_samples() > 0) {
      json += Timeline();
    }
    if (options_.source) json += SourceJson();
    json += "}";
    return json;
  }

 private:
  int FrameDigits() const {
    int digits = 1;
    for (uint64_t room = 88; room < names_.size(); room *= 88) ++digits;
    return digits;
  }

  // `values` divided by the scales, packed.
  void Values(const int64_t* values, size_t count, PackedWriter* out) const {
    for (size_t t = 0; t < scales_.size(); ++t) {
      out->Signed(t < count ? values[t] / static_cast<int64_t>(scales_[t]) : 0);
    }
  }
  void Values(const std::vector<int64_t>& values, PackedWriter* out) const {
    Values(values.data(), values.size(), out);
  }

  // Per type, the greatest common divisor of every value written (10000000 for a profile of
  // 10 ms samples), by which they are divided: exact, and several characters fewer per value.
  void ComputeScales() {
    const size_t types = totals_.header().types.size();
    scales_.assign(types, 0);
    auto add = [&](const int64_t* values, size_t n) {
      for (size_t t = 0; t < types && t < n; ++t)
        scales_[t] = Gcd(scales_[t], Magnitude(values[t]));
    };
    for (size_t i = 0; i < stack_count(); ++i) add(values_.data() + i * types, types);
    for (const auto& v : base_values_) add(v.data(), v.size());
    if (!diff_ && options_.timeline != nullptr) {
      options_.timeline->ForEachEntry(
          [&](const SampleTimeline::Entry& entry) { add(entry.values, types); });
    }
    for (uint64_t& scale : scales_) {
      if (scale == 0 || scale > static_cast<uint64_t>(INT64_MAX)) scale = 1;
    }
  }

  // The timeline: bins from `origin` of `width` ns, rows by source and thread ([label, full
  // name]) with each row's sums per bin (what the timeline draws), and the sums per stack and
  // brush bin (what the views sum in a brushed window). The brush's bins are `step` bins of the
  // drawing, `step` the smallest power of two that keeps those sums within kBrushBudget entries:
  // the page's size is bounded whatever the number of samples, and a window on the brush's bins
  // still gives exactly prof-text --time's totals. The origin (nanoseconds since 1970) is a
  // string: past 2^53 a JavaScript number is no longer exact, and the page shows the window's
  // ends to the nanosecond (BigInt).
  std::string Timeline() const {
    const SampleTimeline& timeline = *options_.timeline;
    const size_t types = totals_.header().types.size();
    const size_t row_count = timeline.rows().size();
    const uint32_t bin_count = timeline.bins();
    // Per row and bin: the sums (what the timeline draws), and whether any sample is there.
    // Per bin: how many of the timeline's entries (one per row, bin and stack) it has.
    std::vector<int64_t> activity(row_count * bin_count * types, 0);
    std::vector<bool> active(row_count * bin_count, false);
    std::vector<uint32_t> stack_of_entry;  // in ForEachEntry's order; UINT32_MAX: not drawn
    std::vector<size_t> bin_start(size_t{bin_count} + 1, 0);
    timeline.ForEachEntry([&](const SampleTimeline::Entry& entry) {
      uint64_t stack;
      if (!stack_of_id_.Find(entry.stack_id, &stack)) {
        stack_of_entry.push_back(UINT32_MAX);
        return;
      }
      stack_of_entry.push_back(static_cast<uint32_t>(stack));
      ++bin_start[entry.bin + 1];
      const size_t at = size_t{entry.row} * bin_count + entry.bin;
      active[at] = true;
      int64_t* sums = activity.data() + at * types;
      for (size_t t = 0; t < types; ++t) AddSaturating(&sums[t], entry.values[t]);
    });
    // The entries by bin (a counting sort, values copied along): the timeline's entries come
    // nearly in time order, so both the reading and the writing are sequential, where ordering
    // them by stack read a million scattered values (a fifth of the page's time).
    for (uint32_t bin = 0; bin < bin_count; ++bin) bin_start[bin + 1] += bin_start[bin];
    std::vector<uint32_t> cell_stack(bin_start[bin_count]);
    std::vector<int64_t> cell_values(cell_stack.size() * types);
    {
      std::vector<size_t> next(bin_start.begin(), bin_start.end() - 1);
      size_t e = 0;
      timeline.ForEachEntry([&](const SampleTimeline::Entry& entry) {
        const uint32_t stack = stack_of_entry[e++];
        if (stack == UINT32_MAX) return;
        const size_t at = next[entry.bin]++;
        cell_stack[at] = stack;
        std::copy(entry.values, entry.values + types, cell_values.begin() + at * types);
      });
    }
    stack_of_entry = std::vector<uint32_t>();
    // The brush's bins: `step` bins each; the sums per (stack, brush bin) it would hold counted
    // with each stack's last brush bin (the bins are met in order).
    std::vector<uint32_t> last_brush_bin(stack_count());
    auto entries_at = [&](uint32_t step) {
      std::fill(last_brush_bin.begin(), last_brush_bin.end(), UINT32_MAX);
      size_t count = 0;
      for (uint32_t bin = 0; bin < bin_count; ++bin) {
        for (size_t c = bin_start[bin]; c < bin_start[bin + 1]; ++c) {
          uint32_t& last = last_brush_bin[cell_stack[c]];
          count += last != bin / step;
          last = bin / step;
        }
      }
      return count;
    };
    uint32_t step = 1;
    while (step < bin_count && entries_at(step) > kBrushBudget) step *= 2;
    std::string json = ",\"timeline\":{\"origin\":\"" + std::to_string(timeline.origin()) +
                       "\",\"width\":" + std::to_string(timeline.width()) +
                       ",\"bins\":" + std::to_string(bin_count) +
                       ",\"step\":" + std::to_string(step) +
                       ",\"samples\":" + std::to_string(timeline.timed_samples()) + ",\"rows\":[";
    for (size_t i = 0; i < row_count; ++i) {
      json += (i ? ",[" : "[") + PageJsonString(timeline.row_labels()[i]) + "," +
              PageJsonString(timeline.rows()[i]) + "]";
    }
    json += "],\"activity\":[";
    for (size_t i = 0; i < row_count; ++i) {
      PackedWriter row;
      uint32_t last = 0;
      for (uint32_t bin = 0; bin < bin_count; ++bin) {
        const size_t at = i * bin_count + bin;
        if (!active[at]) continue;
        row.Number(bin - last);
        last = bin;
        Values(activity.data() + at * types, types, &row);
      }
      json += (i ? ",\"" : "\"") + row.text() + "\"";
    }
    // Per brush bin with entries: the bin from the previous one's, the number of its entries,
    // and each entry's stack from the previous one's (in order of stack) and its values. The
    // sums of a brush bin's stacks are gathered in one array by stack.
    PackedWriter entries;
    std::vector<int64_t> sums(stack_count() * types, 0);
    std::vector<bool> touched(stack_count(), false);
    std::vector<uint32_t> present;
    uint32_t previous_brush_bin = 0;
    for (uint32_t first = 0; first < bin_count; first += step) {
      const uint32_t end =
          static_cast<uint32_t>(std::min<uint64_t>(uint64_t{first} + step, bin_count));
      present.clear();
      for (size_t c = bin_start[first]; c < bin_start[end]; ++c) {
        const uint32_t stack = cell_stack[c];
        if (!touched[stack]) {
          touched[stack] = true;
          present.push_back(stack);
        }
        int64_t* into = sums.data() + size_t{stack} * types;
        for (size_t t = 0; t < types; ++t) AddSaturating(&into[t], cell_values[c * types + t]);
      }
      if (present.empty()) continue;
      std::sort(present.begin(), present.end());
      entries.Number(first / step - previous_brush_bin);
      previous_brush_bin = first / step;
      entries.Number(present.size());
      uint32_t previous_stack = 0;
      for (const uint32_t stack : present) {
        entries.Number(stack - previous_stack);
        previous_stack = stack;
        int64_t* of_stack = sums.data() + size_t{stack} * types;
        Values(of_stack, types, &entries);
        std::fill(of_stack, of_stack + types, 0);
        touched[stack] = false;
      }
    }
    return json + "],\"entries\":\"" + entries.text() + "\"}";
  }

  // The source pane's data: per function on the page with a file (its frame index), each of
  // its files (an index into "files": the trimmed name, and why there is no text, or "") with its
  // sums per type and its rows [line, text or 0, [flat per type], [cum per type]]. The rows are
  // those --list shows (source_lines.h), except that past kSourcePaneLines lines only those
  // within kSourceMargin of a line with values are kept ([0] marks a gap), and that once the page
  // holds kSourcePaneBytes of text the rows go without text. Only the kSourcePaneFunctions
  // functions with the largest cumulative values (the default type) are there ("left": how
  // many more had a file).
  std::string SourceJson() const {
    const size_t types = totals_.header().types.size();
    SourceFiles files(options_.source_path, options_.trim_path);
    std::vector<SourceLineValues> values;
    for (size_t t = 0; t < types; ++t) {
      values.push_back(AttributeSourceLines(totals_, static_cast<int>(t), files,
                                            [](const std::string&) { return true; }));
    }
    const size_t v = static_cast<size_t>(options_.value_index);
    // Functions with a file, largest cum first (then by name).
    std::vector<std::pair<uint64_t, std::string>> order;
    for (const std::string& name : values[v].names) {
      if (ids_.count(name) == 0) continue;
      uint64_t cum = 0;
      const std::vector<FunctionFile> function_files = FilesOf(values[v], name);
      for (const FunctionFile& file : function_files) cum = std::max(cum, Magnitude(file.cum));
      if (!function_files.empty()) order.emplace_back(cum, name);
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t shown = std::min(order.size(), kSourcePaneFunctions);
    std::map<std::string, size_t> file_index;
    std::string files_json, functions_json;
    size_t bytes = 0;
    auto numbers = [](const std::vector<int64_t>& list) {
      std::string out = "[";
      for (size_t i = 0; i < list.size(); ++i) out += (i ? "," : "") + std::to_string(list[i]);
      return out + "]";
    };
    for (size_t f = 0; f < shown; ++f) {
      const std::string& name = order[f].second;
      std::vector<std::vector<FunctionFile>> by_type;
      for (size_t t = 0; t < types; ++t) by_type.push_back(FilesOf(values[t], name));
      functions_json += (f ? ",[" : "[") + std::to_string(ids_.at(name)) + ",[";
      for (size_t i = 0; i < by_type[v].size(); ++i) {
        const FunctionFile& file = by_type[v][i];
        const SourceText& text = files.Get(file.file);
        auto [at, added] = file_index.try_emplace(file.file, file_index.size());
        if (added) {
          files_json += (at->second ? ",[" : "[") + PageJsonString(file.file) + "," +
                        PageJsonString(text.found ? "" : text.problem) + "]";
          // The page is shared: its author is told which of their files it carries.
          if (text.found) warnings_->push_back("the page embeds lines of " + Printable(text.path));
        }
        std::vector<int64_t> flat(types), cum(types);
        for (size_t t = 0; t < types; ++t) {
          flat[t] = by_type[t][i].flat;
          cum[t] = by_type[t][i].cum;
        }
        functions_json += (i ? ",[" : "[") + std::to_string(at->second) + "," + numbers(flat) +
                          "," + numbers(cum) + ",[";
        auto row = [&](int64_t line, const std::string_view* line_text) {
          for (size_t t = 0; t < types; ++t) {
            auto it = by_type[t][i].lines.find(line);
            flat[t] = it == by_type[t][i].lines.end() ? 0 : it->second.flat;
            cum[t] = it == by_type[t][i].lines.end() ? 0 : it->second.cum;
          }
          std::string shown_text = "0";
          if (line_text != nullptr && bytes + line_text->size() <= kSourcePaneBytes) {
            bytes += line_text->size();
            shown_text = JsonString(DisplaySourceLine(*line_text), /*html_safe=*/true);
          }
          return "[" + std::to_string(line) + "," + shown_text + "," + numbers(flat) + "," +
                 numbers(cum) + "]";
        };
        const SourceRange range = ShownRange(file.lines, text);
        const bool long_range = range.last_shown - range.first_shown + 1 > kSourcePaneLines;
        bool first_row = true;
        bool gap = false;
        auto near = [&](int64_t n) {
          auto it = file.lines.lower_bound(n - kSourceMargin);
          return it != file.lines.end() && it->first <= n + kSourceMargin;
        };
        for (int64_t n = range.first_shown; n <= range.last_shown; ++n) {
          if (long_range && !near(n)) {
            gap = true;
            continue;
          }
          if (gap && !first_row) functions_json += ",[0]";
          gap = false;
          functions_json += (first_row ? "" : ",") + row(n, &text.lines[n - 1]);
          first_row = false;
        }
        for (int64_t n : range.beyond) {
          functions_json += (first_row ? "" : ",") + row(n, nullptr);
          first_row = false;
        }
        functions_json += "]]";
      }
      functions_json += "]]";
    }
    return ",\"source\":{\"files\":[" + files_json + "],\"functions\":[" + functions_json +
           "],\"left\":" + std::to_string(order.size() - shown) + ",\"limits\":[" +
           std::to_string(kSourcePaneFunctions) + "," + std::to_string(kSourcePaneLines) + "," +
           std::to_string(kSourcePaneBytes) + "]}";
  }

  void Collect() {
    const Definitions& defs = totals_.defs();
    FrameExpander expander(defs, options_.granularity);
    // Names are numbered in the order a walk of the paths from the root meets them, and hashed
    // once a location, not once a frame of every stack (2 million on the million-sample
    // benchmark).
    LocationNumbers numbers(LocationNumbers::Order::kOutermostFirst);
    auto number_of = [&](const Frame& frame) {
      auto [id, added] = ids_.try_emplace(frame.name, static_cast<uint32_t>(names_.size()));
      if (added) {
        names_.push_back(frame.name);
        kinds_.push_back(frame.kind);
        sources_.push_back(frame.source);
      }
      return id->second;
    };
    // Frame sequences numbered in order of first sight (input stacks that expand to the same
    // names are one), each once in one array (a vector a stack, and a table keyed by copies of
    // them, were a third of the page's data).
    StackTable paths;
    std::vector<uint32_t> path;
    std::vector<uint64_t> keys;
    const size_t types = totals_.header().types.size();
    stack_start_.assign(1, 0);
    seq_start_.assign(1, 0);
    for (const StackTotals::Entry& entry : totals_.entries()) {
      uint64_t at;
      // The entries of one stack with other labels: its path is known.
      if (!stack_of_id_.Find(entry.stack_id, &at)) {
        path.clear();
        if (const Stack* stack = defs.stacks.Find(entry.stack_id)) {
          numbers.AppendStack(&expander, *stack, LocationNumbers::Walk::kFromTheRoot, number_of,
                              &path);
        }
        keys.assign(path.begin(), path.end());
        bool added = false;
        at = paths.Intern(keys, &added) - 1;
        stack_of_id_.Insert(entry.stack_id, at, &at);
        if (added) {
          stack_frames_.insert(stack_frames_.end(), path.begin(), path.end());
          stack_start_.push_back(stack_frames_.size());
          values_.resize(values_.size() + types, 0);
          // The sequence view reads stacks as prof-text's sequence reports do, with directly
          // repeated cycles collapsed (sequence_stacks.h); only recursive stacks differ.
          const std::vector<size_t> kept = CollapseRepeats(keys);
          if (kept.size() != path.size()) {
            for (size_t k : kept) seq_frames_.push_back(path[k]);
          }
          seq_start_.push_back(seq_frames_.size());
        }
      }
      int64_t* values = values_.data() + at * types;
      for (size_t t = 0; t < entry.values.size() && t < types; ++t) values[t] += entry.values[t];
      if (const int64_t* entry_base = totals_.base_values(entry)) {
        diff_ = true;
        base_values_.resize(stack_count());
        std::vector<int64_t>& base = base_values_[at];
        base.resize(entry.values.size(), 0);
        for (size_t t = 0; t < base.size(); ++t) base[t] += entry_base[t];
      }
    }
  }

  const StackTotals& totals_;
  const HtmlReportOptions& options_;
  std::vector<std::string>* warnings_;
  std::vector<std::string> names_, sources_;
  std::vector<FrameKind> kinds_;
  size_t stack_count() const { return stack_start_.size() - 1; }
  // The stacks' frames (root first): stack i's are [stack_start_[i], stack_start_[i + 1]).
  std::vector<uint32_t> stack_frames_;
  std::vector<size_t> stack_start_;
  // The same for the sequence view's frames: none when no cycle repeats.
  std::vector<uint32_t> seq_frames_;
  std::vector<size_t> seq_start_;
  std::vector<int64_t> values_;                    // the stacks' sums, one per type each
  IdMap stack_of_id_;                              // input stack id -> stack number
  std::unordered_map<std::string, uint32_t> ids_;  // frame name -> index in names_
  bool diff_ = false;  // --diff-base: values_ are differences, base_values_ the base's
  std::vector<std::vector<int64_t>> base_values_;
  std::vector<uint64_t> scales_;
};

}  // namespace

std::string PageJsonString(const std::string& text) {
  // As the page shows names: valid UTF-8, bytes that are not as \xHH, no control bytes.
  return JsonString(DisplayFrameName(text), /*html_safe=*/true);
}

std::vector<std::string> WriteHtmlReport(const StackTotals& totals,
                                         const HtmlReportOptions& options, ByteSink* out) {
  const std::string title = options.title.empty() ? "Profile" : options.title;
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // The page's one script, whose hash alone the policy lets run: whatever a profile's strings
  // slipped into the page (a script element, an attribute, a link to javascript:) would not.
  const std::string script = std::string("\n") + kWebFitNameJs + kWebGraphPanZoomJs + kWebReportJs;
  const std::array<uint8_t, 32> digest = Sha256(script);
  // No request may leave the page: everything is inline, and the policy says so to the browser.
  page +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'sha256-" +
      Base64(digest.data(), digest.size()) + "'; img-src data:\">\n";
  page += "<title>" + EscapeXml(DisplayFrameName(title)) + "</title>\n<style>\n";
  page += kWebReportCss;
  page += "</style>\n</head>\n<body>\n";
  page += kWebReportHtml;
  page += "<script type=\"application/json\" id=\"profile-data\">";
  out->Write(page);
  std::vector<std::string> warnings;
  // The graphs are built on other threads while this one writes the page's data.
  std::unique_ptr<HtmlGraphs> graphs;
  if (options.graph != nullptr) graphs = std::make_unique<HtmlGraphs>(totals, *options.graph);
  out->Write(DataWriter(totals, options, &warnings).Json());
  page = "</script>\n";
  if (graphs != nullptr) {
    page += "<script type=\"application/json\" id=\"graph-data\">" + graphs->Json(&warnings) +
            "</script>\n";
  }
  page += "<script>" + script + "</script>\n</body>\n</html>\n";
  out->Write(page);
  return warnings;
}

}  // namespace proftools
