// What a Perfetto trace's packet sequence (one writer: a thread, a data source) carries from
// packet to packet: its interned data (names, and the profilers' mappings, frames and
// callstacks), its defaults (the track its events belong to) and, for older writers, its
// thread and the running time of its delta-encoded events. It is valid from a packet that says
// the incremental state was cleared until a packet that says some were lost.
#ifndef PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_SEQUENCE_H_
#define PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_SEQUENCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/proto_wire.h"
#include "common/model/interner.h"

namespace proftools {

struct PerfettoSequence {
  struct MappingEntry {
    uint64_t build_id = 0;           // iid of build_ids
    std::vector<uint64_t> path_ids;  // iids of mapping_paths, joined by '/'
    uint64_t start = 0, end = 0, start_offset = 0, exact_offset = 0;
  };
  struct FrameEntry {
    uint64_t function_name = 0, mapping = 0, rel_pc = 0, source_path = 0;
    int64_t line = 0;
  };

  bool valid = false;  // incremental state cleared since the start or the last loss

  // The interned data, made when a sequence first interns something (a trace may have many
  // sequences that intern nothing: each costs a few words then).
  struct Tables {
    std::unordered_map<uint64_t, std::string> event_names, annotation_names, function_names,
        mapping_paths, build_ids, source_paths;
    std::unordered_map<uint64_t, MappingEntry> mappings;
    std::unordered_map<uint64_t, FrameEntry> frames;
    std::unordered_map<uint64_t, std::vector<uint64_t>> callstacks;  // frame iids, outermost first
    // Our ids, for what was interned already; stacks (one a sample) by iid in a vector while
    // iids are small, as writers count them.
    std::vector<uint64_t> stack_ids_dense;
    std::unordered_map<uint64_t, uint64_t> stack_ids, location_ids, mapping_ids;
  };
  std::unique_ptr<Tables> tables;

  // An interned event or debug annotation name, or null.
  const std::string* EventName(uint64_t iid) const { return Find(&Tables::event_names, iid); }
  const std::string* AnnotationName(uint64_t iid) const {
    return Find(&Tables::annotation_names, iid);
  }

  std::optional<uint64_t> default_track;  // TracePacketDefaults' track_event_defaults.track_uuid
  // An older writer's ThreadDescriptor: its thread, and the time its events' deltas add to.
  std::optional<int64_t> pid, tid;
  int64_t event_time_ns = 0;

  // SEQ_INCREMENTAL_STATE_CLEARED: forgets the interned data and defaults.
  void Clear();
  // Adds an InternedData message's entries; InternProfileTables a ProfilePacket's own tables
  // (Android 10's heapprofd: strings, frames, callstacks and mappings in the packet).
  void Intern(const ProtoField& interned_data);
  void InternProfileTables(const ProtoField& profile_packet);

  // The stack of callstack `iid` (leaf first), interned; nullopt when the callstack, or one of
  // its frames or mappings, was never defined on this sequence.
  std::optional<uint64_t> Stack(uint64_t iid, Interner* interner);

 private:
  using StringTable = std::unordered_map<uint64_t, std::string> Tables::*;
  const std::string* Find(StringTable table, uint64_t iid) const {
    if (!tables) return nullptr;
    const auto found = (tables.get()->*table).find(iid);
    return found == (tables.get()->*table).end() ? nullptr : &found->second;
  }
  Tables& Made();
  std::optional<uint64_t> LocationOf(uint64_t frame_iid, Interner* interner);
  uint64_t MappingOf(uint64_t mapping_iid, const MappingEntry& entry, Interner* interner);
  static void ReadMapping(const ProtoField& field, std::unordered_map<uint64_t, MappingEntry>* to);
  static void ReadFrame(const ProtoField& field, std::unordered_map<uint64_t, FrameEntry>* to);
  static void ReadCallstack(const ProtoField& field,
                            std::unordered_map<uint64_t, std::vector<uint64_t>>* to);
};

// An interned name or string (EventName, DebugAnnotationName, InternedString: iid = 1, the
// string = 2) into `table`.
void ReadInternedString(const ProtoField& field, std::unordered_map<uint64_t, std::string>* table);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_PERFETTO_PERFETTO_SEQUENCE_H_
