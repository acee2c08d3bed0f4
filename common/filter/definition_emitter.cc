#include "common/filter/definition_emitter.h"

namespace proftools {

void SplitIntoRuns(const std::vector<FrameRef>& frames, std::vector<FrameRun>* runs) {
  runs->clear();
  size_t i = 0;
  while (i < frames.size()) {
    size_t end = i + 1;
    while (end < frames.size() && frames[end].location_id == frames[i].location_id &&
           frames[end].line > frames[end - 1].line) {
      ++end;
    }
    runs->push_back({i, end});
    i = end;
  }
}

uint64_t DefinitionEmitter::MappingId(uint64_t mapping_id) {
  if (mapping_id == 0) return 0;
  uint64_t out;
  if (mappings_.Find(mapping_id, &out)) return out;
  out = interner_.Mapping(*input_.mappings.Find(mapping_id));
  mappings_.Insert(mapping_id, out, nullptr);
  return out;
}

uint64_t DefinitionEmitter::FunctionId(uint64_t function_id) {
  uint64_t out;
  if (functions_.Find(function_id, &out)) return out;
  out = interner_.Function(*input_.functions.Find(function_id));
  functions_.Insert(function_id, out, nullptr);
  return out;
}

uint64_t DefinitionEmitter::LocationId(uint64_t location_id) {
  uint64_t out;
  if (locations_.Find(location_id, &out)) return out;
  Location location = *input_.locations.Find(location_id);
  location.mapping_id = MappingId(location.mapping_id);
  for (Line& line : location.lines) line.function_id = FunctionId(line.function_id);
  out = interner_.Location(location);
  locations_.Insert(location_id, out, nullptr);
  return out;
}

uint64_t DefinitionEmitter::Stack(uint64_t stack_id) {
  uint64_t out;
  if (stacks_.Find(stack_id, &out)) return out;
  const proftools::Stack& stack = *input_.stacks.Find(stack_id);
  location_ids_.clear();
  for (uint64_t location_id : stack.location_ids) location_ids_.push_back(LocationId(location_id));
  out = interner_.Stack(location_ids_);
  stacks_.Insert(stack_id, out, nullptr);
  return out;
}

void DefinitionEmitter::Frames(uint64_t stack_id, std::vector<FrameRef>* frames) const {
  frames->clear();
  for (uint64_t location_id : input_.stacks.Find(stack_id)->location_ids) {
    const size_t lines = input_.locations.Find(location_id)->lines.size();
    if (lines == 0) frames->push_back({location_id, 0});
    for (size_t i = 0; i < lines; ++i) frames->push_back({location_id, static_cast<uint32_t>(i)});
  }
}

uint64_t DefinitionEmitter::StackOfFrames(const std::vector<FrameRef>& frames) {
  location_ids_.clear();
  SplitIntoRuns(frames, &runs_);
  for (const auto [i, end] : runs_) {
    const uint64_t location_id = frames[i].location_id;
    const Location& location = *input_.locations.Find(location_id);
    const bool whole = location.lines.empty() || (end - i == location.lines.size());
    if (whole) {
      location_ids_.push_back(LocationId(location_id));
    } else {
      Location part = location;
      part.lines.clear();
      for (size_t k = i; k < end; ++k) part.lines.push_back(location.lines[frames[k].line]);
      part.mapping_id = MappingId(part.mapping_id);
      for (Line& line : part.lines) line.function_id = FunctionId(line.function_id);
      location_ids_.push_back(interner_.Location(part));
    }
  }
  return interner_.Stack(location_ids_);
}

}  // namespace proftools
