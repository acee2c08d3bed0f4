#include "common/report/frames.h"

#include "common/base/decimal.h"
#include "common/base/text_syntax.h"
#include "common/model/frame_kind.h"

namespace proftools {

bool ParseGranularity(const std::string& text, Granularity* out) {
  if (text == "functions")
    *out = Granularity::kFunctions;
  else if (text == "filefunctions")
    *out = Granularity::kFileFunctions;
  else if (text == "files")
    *out = Granularity::kFiles;
  else if (text == "lines")
    *out = Granularity::kLines;
  else if (text == "addresses")
    *out = Granularity::kAddresses;
  else if (text == "filelines")
    *out = Granularity::kFileLines;
  else
    return false;
  return true;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

FrameExpander::FrameExpander(const Definitions& defs, Granularity granularity)
    : defs_(defs), granularity_(granularity) {}

namespace {

// "FILE:LINE", "FILE" when the line is unknown, "" when the file is.
std::string SourceOf(const std::string& file, int64_t line) {
  if (file.empty() || line <= 0) return file;
  // One allocation (a hundred thousand locations; operator+ and to_string made three each).
  char digits[1 + kMaxDecimalDigits] = {':'};
  const char* const end = WriteDecimal(digits + 1, static_cast<uint64_t>(line));
  std::string source;
  source.reserve(file.size() + static_cast<size_t>(end - digits));
  source.append(file).append(digits, static_cast<size_t>(end - digits));
  return source;
}

}  // namespace

std::vector<Frame> FrameExpander::Expand(const Location& location) const {
  std::vector<Frame> frames = ExpandNames(location);
  const Mapping* mapping =
      location.mapping_id != 0 ? defs_.mappings.Find(location.mapping_id) : nullptr;
  FrameKind code = FrameKind::kUser;
  const CodeKind kind = mapping != nullptr ? CodeKindOfMapping(mapping->file) : CodeKind::kNative;
  if (kind == CodeKind::kKernel) code = FrameKind::kKernel;
  if (kind == CodeKind::kJit) code = FrameKind::kJit;
  size_t line_index = 0;
  for (Frame& frame : frames) {
    frame.kind = frame.inlined && code == FrameKind::kUser ? FrameKind::kInlined : code;
    // Frames follow the location's lines in order (kFileLines skips lines without a number).
    while (line_index < location.lines.size() && granularity_ == Granularity::kFileLines &&
           location.lines[line_index].line == 0) {
      ++line_index;
    }
    if (line_index >= location.lines.size()) continue;
    const Line& line = location.lines[line_index++];
    const Function* function = defs_.functions.Find(line.function_id);
    if (function == nullptr) continue;
    frame.source = SourceOf(function->file, granularity_ == Granularity::kFunctions ||
                                                    granularity_ == Granularity::kFileFunctions
                                                ? function->start_line
                                                : line.line);
  }
  return frames;
}

std::vector<Frame> FrameExpander::ExpandNames(const Location& location) const {
  std::vector<Frame> frames;
  frames.reserve(location.lines.empty() ? 1 : location.lines.size());
  // The address as pprof -addresses prints it (a hundred thousand locations: made only where
  // a name shows it).
  const auto address = [&] {
    std::string text;
    AppendHex(&text, location.address);
    return text;
  };
  static const std::string kUnknown = "?";
  if (granularity_ == Granularity::kFileLines) {
    for (size_t i = 0; i < location.lines.size(); ++i) {
      const Line& line = location.lines[i];
      if (line.line == 0) continue;
      const Function* function = defs_.functions.Find(line.function_id);
      const std::string& file =
          function != nullptr && !function->file.empty() ? function->file : kUnknown;
      Frame frame;
      frame.name = file + ":" + std::to_string(line.line);
      frame.inlined = i + 1 < location.lines.size();
      frames.push_back(std::move(frame));
    }
    return frames;
  }
  if (location.lines.empty()) {
    const Mapping* mapping =
        location.mapping_id != 0 ? defs_.mappings.Find(location.mapping_id) : nullptr;
    Frame frame;
    if (mapping != nullptr && !mapping->file.empty()) {
      frame.name = "[" + BaseName(mapping->file) + "]";
      if (granularity_ == Granularity::kAddresses) frame.name = address() + " " + frame.name;
    } else {
      // Neither a function nor a binary: pprof's one "<unknown>" node (graph.NodeInfo), so that
      // perf's unsymbolised frames outside any mapping (`0x5 [unknown] ([unknown])`) merge into
      // one row as in pprof -top, not one row per garbage address. By address, the address
      // first, as pprof -addresses prints it.
      frame.name = "<unknown>";
      if (granularity_ == Granularity::kAddresses) frame.name = address() + " " + frame.name;
    }
    frames.push_back(std::move(frame));
    return frames;
  }
  for (size_t i = 0; i < location.lines.size(); ++i) {
    const Line& line = location.lines[i];
    const Function* function = defs_.functions.Find(line.function_id);
    const std::string& name = function != nullptr ? function->name : kUnknown;
    const std::string& file =
        function != nullptr && !function->file.empty() ? function->file : kUnknown;
    Frame frame;
    frame.inlined = i + 1 < location.lines.size();
    switch (granularity_) {
      case Granularity::kFunctions:
        frame.name = name;
        break;
      case Granularity::kFileFunctions:
        frame.name = name + " " + file;
        break;
      case Granularity::kFiles:
        frame.name = file;
        break;
      case Granularity::kLines:
        frame.name = name + " " + file + ":" + std::to_string(line.line);
        break;
      case Granularity::kAddresses:
        frame.name = address() + " " + name + " " + file + ":" + std::to_string(line.line);
        break;
      case Granularity::kFileLines:
        break;  // handled above
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

namespace {
const char* const kUndefinedLocation = "[undefined location]";
}  // namespace

const std::vector<Frame>& FrameExpander::LocationFrames(uint64_t location_id) {
  const uint32_t known = by_location_.Find(location_id);
  if (known != FlatIndex::kAbsent) return expanded_[known];
  const Location* location = defs_.locations.Find(location_id);
  std::vector<Frame> frames;
  if (location != nullptr) {
    frames = Expand(*location);
  } else {
    frames.emplace_back();
    frames.back().name = kUndefinedLocation;
  }
  bool added = false;
  by_location_.FindOrAdd(location_id, static_cast<uint32_t>(expanded_.size()), &added);
  expanded_.push_back(std::move(frames));
  return expanded_.back();
}

const std::vector<Frame>& FrameExpander::LocationNames(uint64_t location_id) {
  if (const Location* location = defs_.locations.Find(location_id)) {
    names_ = ExpandNames(*location);
  } else {
    names_.assign(1, Frame());
    names_.back().name = kUndefinedLocation;
  }
  return names_;
}

void FrameExpander::StackFrames(uint64_t stack_id, std::vector<const Frame*>* out) {
  const Stack* stack = defs_.stacks.Find(stack_id);
  if (stack == nullptr) return;
  for (uint64_t location_id : stack->location_ids) {
    for (const Frame& frame : LocationFrames(location_id)) out->push_back(&frame);
  }
}

}  // namespace proftools
