#include "common/chrome/perfetto/perfetto_sequence.h"

#include <algorithm>
#include <utility>

#include "common/model/model.h"

namespace proftools {

void ReadInternedString(const ProtoField& field, std::unordered_map<uint64_t, std::string>* table) {
  if (field.type != WireType::kBytes) return;
  ProtoReader reader(field);
  ProtoField f;
  uint64_t iid = 0;
  std::string_view text;
  while (reader.Next(&f)) {
    if (f.number == 1 && f.type == WireType::kVarint) iid = f.value;
    if (f.number == 2 && f.type == WireType::kBytes) text = f.bytes;
  }
  if (iid != 0) (*table)[iid] = std::string(text);
}

void PerfettoSequence::Clear() {
  tables.reset();
  default_track.reset();
  valid = true;
}

PerfettoSequence::Tables& PerfettoSequence::Made() {
  if (!tables) tables = std::make_unique<Tables>();
  return *tables;
}

void PerfettoSequence::ReadMapping(const ProtoField& field,
                                   std::unordered_map<uint64_t, MappingEntry>* to) {
  if (field.type != WireType::kBytes) return;
  ProtoReader reader(field);
  ProtoField f;
  uint64_t iid = 0;
  MappingEntry entry;
  while (reader.Next(&f)) {
    switch (f.number) {
      case 1:
        iid = f.value;
        break;
      case 2:
        entry.build_id = f.value;
        break;
      case 3:
        entry.start_offset = f.value;
        break;
      case 4:
        entry.start = f.value;
        break;
      case 5:
        entry.end = f.value;
        break;
      case 7:
        ProtoReader::ForEachVarint(f, [&](uint64_t id) { entry.path_ids.push_back(id); });
        break;
      case 8:
        entry.exact_offset = f.value;
        break;
      default:
        break;
    }
  }
  if (iid != 0) (*to)[iid] = std::move(entry);
}

void PerfettoSequence::ReadFrame(const ProtoField& field,
                                 std::unordered_map<uint64_t, FrameEntry>* to) {
  if (field.type != WireType::kBytes) return;
  ProtoReader reader(field);
  ProtoField f;
  uint64_t iid = 0;
  FrameEntry entry;
  while (reader.Next(&f)) {
    if (f.type != WireType::kVarint) continue;
    switch (f.number) {
      case 1:
        iid = f.value;
        break;
      case 2:
        entry.function_name = f.value;
        break;
      case 3:
        entry.mapping = f.value;
        break;
      case 4:
        entry.rel_pc = f.value;
        break;
      case 5:
        entry.source_path = f.value;
        break;
      case 6:
        entry.line = static_cast<int64_t>(static_cast<uint32_t>(f.value));
        break;
      default:
        break;
    }
  }
  if (iid != 0) (*to)[iid] = entry;
}

void PerfettoSequence::ReadCallstack(const ProtoField& field,
                                     std::unordered_map<uint64_t, std::vector<uint64_t>>* to) {
  if (field.type != WireType::kBytes) return;
  ProtoReader reader(field);
  ProtoField f;
  uint64_t iid = 0;
  std::vector<uint64_t> frame_ids;
  while (reader.Next(&f)) {
    if (f.number == 1 && f.type == WireType::kVarint) iid = f.value;
    if (f.number == 2) ProtoReader::ForEachVarint(f, [&](uint64_t id) { frame_ids.push_back(id); });
  }
  if (iid != 0) (*to)[iid] = std::move(frame_ids);
}

void PerfettoSequence::Intern(const ProtoField& interned_data) {
  if (interned_data.type != WireType::kBytes) return;
  Tables& t = Made();
  ProtoReader reader(interned_data);
  ProtoField f;
  while (reader.Next(&f)) {
    switch (f.number) {
      case 2:
        ReadInternedString(f, &t.event_names);
        break;
      case 3:
        ReadInternedString(f, &t.annotation_names);
        break;
      case 5:
        ReadInternedString(f, &t.function_names);
        break;
      case 6:
        ReadFrame(f, &t.frames);
        break;
      case 7:
        ReadCallstack(f, &t.callstacks);
        break;
      case 16:
        ReadInternedString(f, &t.build_ids);
        break;
      case 17:
        ReadInternedString(f, &t.mapping_paths);
        break;
      case 18:
        ReadInternedString(f, &t.source_paths);
        break;
      case 19:
        ReadMapping(f, &t.mappings);
        break;
      default:
        break;
    }
  }
}

void PerfettoSequence::InternProfileTables(const ProtoField& profile_packet) {
  ProtoReader reader(profile_packet);
  Tables* tables_made = nullptr;
  const auto t = [&]() -> Tables& {
    if (tables_made == nullptr) tables_made = &Made();
    return *tables_made;
  };
  ProtoField f;
  while (reader.Next(&f)) {
    switch (f.number) {
      case 1:  // strings: function names and mapping paths alike
        ReadInternedString(f, &t().function_names);
        ReadInternedString(f, &t().mapping_paths);
        ReadInternedString(f, &t().build_ids);
        break;
      case 2:
        ReadFrame(f, &t().frames);
        break;
      case 3:
        ReadCallstack(f, &t().callstacks);
        break;
      case 4:
        ReadMapping(f, &t().mappings);
        break;
      default:
        break;
    }
  }
}

uint64_t PerfettoSequence::MappingOf(uint64_t mapping_iid, const MappingEntry& entry,
                                     Interner* interner) {
  const auto cached = tables->mapping_ids.find(mapping_iid);
  if (cached != tables->mapping_ids.end()) return cached->second;
  Mapping mapping;
  mapping.start = entry.start;
  mapping.limit = std::max(entry.end, entry.start);
  mapping.offset = entry.exact_offset;
  for (const uint64_t id : entry.path_ids) {
    const auto part = tables->mapping_paths.find(id);
    if (part == tables->mapping_paths.end()) continue;
    // Android writes the parts of a path (["system", "lib64", "libc.so"]); others one whole path
    // ("/usr/lib/libc.so.6", "[kernel.kallsyms]").
    if (entry.path_ids.size() > 1) mapping.file += '/';
    mapping.file += part->second;
  }
  const auto build_id = tables->build_ids.find(entry.build_id);
  if (build_id != tables->build_ids.end()) {
    // Binary (the note's bytes) in newer traces, hex in older ones: shown as hex either way.
    const std::string& raw = build_id->second;
    const bool hex = !raw.empty() && std::all_of(raw.begin(), raw.end(), [](char c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
    if (hex) {
      mapping.build_id = raw;
    } else {
      static const char kDigits[] = "0123456789abcdef";
      for (const char c : raw) {
        mapping.build_id += kDigits[static_cast<uint8_t>(c) >> 4];
        mapping.build_id += kDigits[static_cast<uint8_t>(c) & 15];
      }
    }
  }
  const uint64_t id = interner->Mapping(mapping);
  tables->mapping_ids.emplace(mapping_iid, id);
  return id;
}

std::optional<uint64_t> PerfettoSequence::LocationOf(uint64_t frame_iid, Interner* interner) {
  const auto cached = tables->location_ids.find(frame_iid);
  if (cached != tables->location_ids.end()) return cached->second;
  const auto frame = tables->frames.find(frame_iid);
  if (frame == tables->frames.end()) return std::nullopt;
  const FrameEntry& entry = frame->second;
  Location location;
  if (entry.mapping != 0) {
    const auto mapping = tables->mappings.find(entry.mapping);
    if (mapping == tables->mappings.end()) return std::nullopt;
    location.mapping_id = MappingOf(entry.mapping, mapping->second, interner);
    // rel_pc counts from where the file's first mapping starts (start_offset); the mapping
    // starts at exact_offset of the file.
    const MappingEntry& m = mapping->second;
    const uint64_t before = m.exact_offset >= m.start_offset ? m.exact_offset - m.start_offset : 0;
    location.address = m.start - std::min(before, m.start) + entry.rel_pc;
  }
  const auto name = tables->function_names.find(entry.function_name);
  if (name != tables->function_names.end() && !name->second.empty()) {
    Function function;
    function.name = name->second;
    const auto file = tables->source_paths.find(entry.source_path);
    if (file != tables->source_paths.end()) function.file = file->second;
    location.lines.push_back(Line{interner->Function(function), entry.line, 0});
  }
  const uint64_t id = interner->Location(location);
  tables->location_ids.emplace(frame_iid, id);
  return id;
}

std::optional<uint64_t> PerfettoSequence::Stack(uint64_t iid, Interner* interner) {
  if (!tables) return std::nullopt;
  constexpr uint64_t kDense = uint64_t{1} << 20;
  if (iid < tables->stack_ids_dense.size() && tables->stack_ids_dense[iid] != 0)
    return tables->stack_ids_dense[iid];
  if (iid >= kDense) {
    const auto cached = tables->stack_ids.find(iid);
    if (cached != tables->stack_ids.end()) return cached->second;
  }
  const auto callstack = tables->callstacks.find(iid);
  if (callstack == tables->callstacks.end()) return std::nullopt;
  std::vector<uint64_t> locations;
  locations.reserve(callstack->second.size());
  // Outermost first in the trace, leaf first here.
  for (auto frame = callstack->second.rbegin(); frame != callstack->second.rend(); ++frame) {
    const std::optional<uint64_t> location = LocationOf(*frame, interner);
    if (!location) return std::nullopt;
    locations.push_back(*location);
  }
  const uint64_t id = interner->Stack(locations);
  if (iid < kDense) {
    if (iid >= tables->stack_ids_dense.size()) tables->stack_ids_dense.resize(iid + 1, 0);
    tables->stack_ids_dense[iid] = id;
  } else {
    tables->stack_ids.emplace(iid, id);
  }
  return id;
}

}  // namespace proftools
