#include "common/instruments/instruments_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/base/text_syntax.h"
#include "common/io/byte_stream.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

// A row's cells, split at tabs (views into the line).
std::vector<std::string_view> Cells(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t from = 0;
  while (true) {
    const size_t tab = line.find('\t', from);
    cells.push_back(line.substr(from, tab == std::string_view::npos ? tab : tab - from));
    if (tab == std::string_view::npos) return cells;
    from = tab + 1;
  }
}

struct Columns {
  int symbol = -1, source = -1, weight = -1;
  bool bytes = false;
};

Columns FindColumns(std::string_view header) {
  Columns columns;
  const std::vector<std::string_view> cells = Cells(header);
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string_view name = cells[i];
    const int index = static_cast<int>(i);
    if (name == "Symbol Name") columns.symbol = index;
    if (name == "Source Path") columns.source = index;
    if (columns.weight < 0 && (name == "Weight" || name == "Running Time")) columns.weight = index;
    if (columns.weight < 0 && name == "Bytes Used") {
      columns.weight = index;
      columns.bytes = true;
    }
  }
  return columns;
}

class InstrumentsReader {
 public:
  InstrumentsReader(Input& input, const ReadContext& context, ProfileSink* sink)
      : input_(input), context_(context), sink_(sink), interner_(sink) {
    interner_.LimitFrames(context.max_implied_frames(), input.name);
  }

  void Read() {
    LineReader lines(input_.stream.get(), LineReader::kDefaultMaxLine, input_.name);
    std::string_view line;
    if (!lines.Next(&line)) throw ProfError(input_.name, "empty input: no header line");
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    columns_ = FindColumns(line);
    if (columns_.symbol < 0 || columns_.weight < 0) {
      throw ProfError(Diagnostic{Rule::kInput, input_.name, 1,
                                 "not an Instruments deep copy: the header has no Symbol Name "
                                 "and Weight, Running Time or Bytes Used columns"});
    }
    ProfileHeader header;
    header.sources.push_back(Source{1, "instruments", context_.uri, std::nullopt});
    header.types.push_back(columns_.bytes ? ValueType{"bytes", "bytes"}
                                          : ValueType{"time", "nanoseconds"});
    sink_->OnHeader(header);
    while (lines.Next(&line)) {
      line_ = lines.line_number();
      Row(line);
    }
    CloseDownTo(0);
    if (samples_ == 0 && !context_.allow_empty) {
      throw ProfError(input_.name,
                      "an Instruments deep copy without weights (--allow-empty reads it as a "
                      "profile without samples)");
    }
    sink_->OnEnd();
  }

 private:
  struct Open {
    int64_t weight = 0, children = 0;
  };

  [[noreturn]] void Fail(const std::string& what) const {
    throw ProfError(Diagnostic{Rule::kInput, input_.name, line_, what});
  }

  void Row(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> cells = Cells(line);
    if (static_cast<int>(cells.size()) <= std::max(columns_.symbol, columns_.weight)) {
      if (line.find_first_not_of(" \t") == std::string_view::npos) return;  // a blank line
      Fail("a row with fewer cells than the header names");
    }
    std::string_view symbol = cells[columns_.symbol];
    const size_t depth = symbol.find_first_not_of(' ');
    if (depth == std::string_view::npos) return;  // no symbol: speedscope skips it too
    symbol = symbol.substr(depth);
    while (!symbol.empty() && symbol.back() == ' ') symbol.remove_suffix(1);
    if (depth > open_.size()) {
      Fail("a node " + std::to_string(depth) + " deep under one " +
           std::to_string(open_.size() - 1) + " deep");
    }
    CloseDownTo(depth);
    const int64_t weight = Weight(cells[columns_.weight]);
    if (!open_.empty()) {
      Open& parent = open_.back();
      if (weight > parent.weight - parent.children) {
        Fail("its weight is more than what its parent has left (" +
             std::to_string(parent.weight - parent.children) + ")");
      }
      parent.children += weight;
    }
    Function function;
    function.name = function.system_name = std::string(symbol);
    if (columns_.source >= 0 && columns_.source < static_cast<int>(cells.size())) {
      function.file = std::string(cells[columns_.source]);
    }
    Location location;
    location.lines.push_back(Line{interner_.Function(function), 0, 0});
    path_.push_back(interner_.Location(location));
    open_.push_back(Open{weight, 0});
  }

  // Closes the open nodes at `depth` and deeper: each one's value of its own is a sample.
  void CloseDownTo(size_t depth) {
    while (open_.size() > depth) {
      const Open node = open_.back();
      const int64_t self = node.weight - node.children;
      if (self > 0) {
        leaf_first_.assign(path_.rbegin(), path_.rend());
        Sample sample;
        sample.source_id = 1;
        sample.stack_id = interner_.Stack(leaf_first_);
        sample.values = {self};
        sink_->OnSample(sample);
        ++samples_;
      }
      open_.pop_back();
      path_.pop_back();
    }
  }

  // "1.50 s  12.3%", "12.0ms", "250.00 µs", "1.50 MB 4.5%": the number and unit before the
  // percentage, in nanoseconds or bytes.
  int64_t Weight(std::string_view cell) const {
    size_t at = cell.find_first_not_of(' ');
    if (at == std::string_view::npos) Fail("an empty weight");
    size_t end = at;
    while (end < cell.size() &&
           ((cell[end] >= '0' && cell[end] <= '9') || cell[end] == '.' || cell[end] == ',')) {
      ++end;
    }
    std::string number(cell.substr(at, end - at));
    number.erase(std::remove(number.begin(), number.end(), ','), number.end());
    char* parsed_end = nullptr;
    const double value = std::strtod(number.c_str(), &parsed_end);
    if (number.empty() || parsed_end != number.c_str() + number.size() || !(value >= 0)) {
      Fail("weight " + Printable(cell) + " does not start with a number");
    }
    while (end < cell.size() && cell[end] == ' ') ++end;
    size_t unit_end = end;
    while (unit_end < cell.size() && cell[unit_end] != ' ' && cell[unit_end] != '\t') ++unit_end;
    const std::string_view unit = cell.substr(end, unit_end - end);
    double scale = 0;
    if (columns_.bytes) {
      scale = unit == "Bytes" || unit == "B" ? 1
              : unit == "KB"                 ? 1024.0
              : unit == "MB"                 ? 1024.0 * 1024
              : unit == "GB"                 ? 1024.0 * 1024 * 1024
                                             : 0;
    } else {
      scale = unit == "ns"                   ? 1
              : unit == "µs" || unit == "us" ? 1e3
              : unit == "ms"                 ? 1e6
              : unit == "s"                  ? 1e9
              : unit == "min"                ? 60e9
              : unit == "h" || unit == "hr"  ? 3600e9
                                             : 0;
    }
    if (scale == 0) Fail("weight " + Printable(cell) + ": unknown unit " + Printable(unit));
    const double scaled = value * scale;
    if (!(scaled < 9.2e18)) Fail("weight " + Printable(cell) + " is too large");
    return std::llround(scaled);
  }

  Input& input_;
  const ReadContext& context_;
  ProfileSink* sink_;
  Interner interner_;
  Columns columns_;
  uint64_t line_ = 1;
  std::vector<Open> open_;
  std::vector<uint64_t> path_;  // location ids, root first
  std::vector<uint64_t> leaf_first_;
  uint64_t samples_ = 0;
};

void ReadInstrumentsInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  InstrumentsReader(input, context, sink).Read();
}

}  // namespace

int SniffInstruments(std::string_view head, bool text) {
  if (!text) return kNotMine;
  std::string_view first = head.substr(0, head.find('\n'));
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  const Columns columns = FindColumns(first);
  return columns.symbol >= 0 && columns.weight >= 0 ? kCertain : kNotMine;
}

const ReaderSpec kInstrumentsReader = {
    "instruments",           "an Instruments deep copy (call tree)",
    ReaderShape::kStreaming, nullptr,
    SniffInstruments,        ReadInstrumentsInput,
};

}  // namespace proftools
