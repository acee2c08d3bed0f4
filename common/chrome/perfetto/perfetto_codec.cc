// kPerfettoReader: one source of type "perfetto". Two passes over the mapped trace: the first
// reads only the packets' field numbers (which kinds of samples the trace has: they make the
// value types), the second decodes them.
#include "common/chrome/perfetto/perfetto_codec.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/proto_wire.h"
#include "common/base/saturating.h"
#include "common/chrome/perfetto/perfetto_sequence.h"
#include "common/chrome/trace_spans.h"
#include "common/chrome/v8_json.h"
#include "common/chrome/v8_profile.h"
#include "common/chrome/v8_trace_profiles.h"
#include "common/io/byte_stream.h"
#include "common/io/mapped_input.h"
#include "common/json/json_document.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"

namespace proftools {
namespace {

// TracePacket's fields.
enum PacketField : uint32_t {
  kProcessTree = 2,
  kTimestamp = 8,
  kSequenceId = 10,
  kTrackEvent = 11,
  kInternedData = 12,
  kSequenceFlags = 13,
  kProfilePacket = 37,
  kIncrementalStateCleared = 41,
  kPreviousPacketDropped = 42,
  kProcessDescriptor = 43,
  kThreadDescriptor = 44,
  kCompressedPackets = 50,
  kStreamingProfilePacket = 54,
  kTracePacketDefaults = 59,
  kTrackDescriptor = 60,
  kPerfSample = 66,
};
constexpr uint64_t kSeqIncrementalStateCleared = 1;
constexpr uint64_t kSeqNeedsIncrementalState = 2;
constexpr int64_t kLegacyPhaseSample = 'P';
// The most packet sequences a trace may have (each costs some memory).
constexpr size_t kMaxSequences = size_t{1} << 16;
// A compressed_packets field inflates to at most this (Perfetto writes 512 KiB at most).
constexpr uint64_t kMaxInflated = uint64_t{64} << 20;

// A legacy event's id as the JSON trace writes it ("0x1f").
std::string HexId(uint64_t id) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(id));
  return text;
}

// Microseconds as nanoseconds, saturating (times are input).
int64_t MicrosToNanos(int64_t us) {
  if (us > INT64_MAX / 1000) return INT64_MAX;
  if (us < INT64_MIN / 1000) return INT64_MIN;
  return us * 1000;
}

struct Track {
  std::optional<int64_t> pid, tid;
  std::string name;  // the track's, or its thread's or process's
};

// The kinds of data a trace holds, from the first pass.
struct Kinds {
  bool v8 = false, native = false, heap = false;
};

// The sink V8's and the spans' conversions write samples to: their values placed in the
// trace's columns (the others 0); definitions go through the interner to the real sink.
class ColumnSink : public ProfileSink {
 public:
  ColumnSink(ProfileSink* sink, size_t offset, size_t total)
      : sink_(sink), offset_(offset), total_(total) {}
  void OnHeader(const ProfileHeader&) override {}
  void OnMapping(const Mapping& m) override { sink_->OnMapping(m); }
  void OnFunction(const Function& f) override { sink_->OnFunction(f); }
  void OnLocation(const Location& l) override { sink_->OnLocation(l); }
  void OnStack(const Stack& s) override { sink_->OnStack(s); }
  void OnSample(const Sample& sample) override {
    copy_ = sample;
    copy_.values.assign(total_, 0);
    for (size_t i = 0; i < sample.values.size() && offset_ + i < total_; ++i) {
      copy_.values[offset_ + i] = sample.values[i];
    }
    sink_->OnSample(copy_);
  }
  void OnEnd() override {}

 private:
  ProfileSink* sink_;
  size_t offset_, total_;
  Sample copy_;
};

// A count and where the first one was, for one warning.
struct Tally {
  uint64_t count = 0, first_byte = 0;
  void Add(uint64_t byte) {
    if (count++ == 0) first_byte = byte;
  }
};

class PerfettoReader {
 public:
  PerfettoReader(MappedInput* mapped, const Input& input, const ReadContext& context)
      : mapped_(mapped),
        trace_(mapped->bytes()),
        name_(input.name),
        context_(context),
        v8_(input.name) {}

  void Scan();
  void Read(ProfileSink* sink);

 private:
  [[noreturn]] void Fail(uint64_t byte, const std::string& message) const {
    throw ProfError(name_, "byte " + std::to_string(Where(byte)) + ": " + message);
  }
  // Calls `each(packet)` for every TracePacket of `trace` (which starts at `offset`); and of
  // a compressed_packets field's content, once inflated.
  template <typename F>
  void ForEachPacket(std::string_view trace, uint64_t offset, F&& each);
  template <typename F>
  void ForEachCompressedPacket(const ProtoField& compressed, F&& each);
  std::string Inflate(const ProtoField& field) const;

  void ScanPacket(const ProtoField& packet);
  bool SkimPacket(const ProtoField& packet);
  void ScanPacketExactly(const ProtoField& packet);
  void ReadPacket(const ProtoField& packet);
  void ReadTrackDescriptor(const ProtoField& field);
  void ReadProcessTree(const ProtoField& field);
  void ReadThreadDescriptor(const ProtoField& field, PerfettoSequence* sequence);
  void ReadTrackEvent(const ProtoField& field, std::optional<uint64_t> packet_ns,
                      PerfettoSequence* sequence);
  void ReadV8Event(const ProtoField& annotation_json, const std::string& name, int64_t pid,
                   std::optional<int64_t> tid, const std::string& id, int64_t ts_ns);
  void ReadStreamingProfile(const ProtoField& field, std::optional<uint64_t> packet_ns,
                            PerfettoSequence* sequence);
  void ReadPerfSample(const ProtoField& field, std::optional<uint64_t> packet_ns,
                      PerfettoSequence* sequence);
  void ReadProfilePacket(const ProtoField& field, uint32_t sequence_id, PerfettoSequence* sequence);
  void EmitNative(uint64_t stack, std::optional<int64_t> ns, std::optional<int64_t> pid,
                  std::optional<int64_t> tid, std::optional<int64_t> cpu);
  std::vector<Label> Labels(std::optional<int64_t> pid, std::optional<int64_t> tid) const;
  // The track of an event on `sequence` whose own track_uuid is `uuid` (0: none).
  const Track* TrackOf(uint64_t uuid, const PerfettoSequence& sequence) const;
  void Warnings() const;

  MappedInput* mapped_;  // the pages behind the packet being read are let go
  std::string_view trace_;
  std::string name_;
  const ReadContext& context_;
  Kinds kinds_;
  bool inflating_ = false;
  uint64_t compressed_at_ = 0;  // the compressed_packets field being read
  // Where a field at `offset` is, for messages: the compressed field it was inflated from.
  uint64_t Where(uint64_t offset) const { return inflating_ ? compressed_at_ : offset; }

  // The second pass's state.
  ProfileSink* sink_ = nullptr;
  Interner* interner_ = nullptr;
  std::unordered_map<uint32_t, PerfettoSequence> sequences_;
  PerfettoSequence* last_sequence_ = nullptr;
  uint32_t last_sequence_id_ = 0;
  std::unordered_map<uint64_t, Track> tracks_;
  std::unordered_map<int64_t, std::string> thread_names_, process_names_;
  // The native samples' label sets by (pid, tid, cpu), numbered; forgotten when a name changes.
  struct LabelKeyHash {
    size_t operator()(const std::array<int64_t, 3>& k) const {
      // Unsigned: the ids are input, and signed overflow is undefined.
      const auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
      return std::hash<uint64_t>()(u(k[0]) * 1000003 ^ u(k[1]) * 10007 ^ u(k[2]));
    }
  };
  std::unordered_map<std::array<int64_t, 3>, Sample, LabelKeyHash> label_sets_;
  // The last label sets found, by a cheap hash of their key: most samples find theirs here.
  struct LabelSetSeen {
    std::array<int64_t, 3> key;
    Sample* sample = nullptr;
  };
  std::array<LabelSetSeen, 256> label_sets_seen_{};
  void ForgetLabelSets() {
    label_sets_.clear();
    label_sets_seen_.fill(LabelSetSeen{});
  }
  uint64_t label_set_ids_ = 0;
  V8TraceProfiles v8_;
  std::map<uint64_t, ThreadSpans> spans_;  // by track
  std::vector<std::pair<uint64_t, std::vector<Label>>> span_labels_;
  size_t samples_column_ = 0, heap_column_ = 0, columns_ = 0;
  Sample sample_;
  uint64_t native_samples_ = 0;
  // heapprofd: each process's last dump (a dump is cumulative: the last one holds it all).
  struct HeapRow {
    uint64_t stack;
    int64_t allocated, freed, max, allocs, frees;
  };
  std::map<int64_t, std::vector<HeapRow>> heap_;
  std::map<int64_t, uint64_t> heap_dumps_;
  std::unordered_map<uint32_t, bool> heap_continued_;  // by sequence
  Tally skipped_packets_, undefined_stacks_, lost_records_, not_v8_data_;
};

template <typename F>
void PerfettoReader::ForEachPacket(std::string_view trace, uint64_t offset, F&& each) {
  ProtoReader reader(trace, offset);
  ProtoField field;
  while (reader.Next(&field)) {
    if (field.number != 1) continue;  // Trace has its packets only (field 1)
    if (field.type != WireType::kBytes) Fail(field.offset, "a packet that is not a message");
    // Nothing keeps a view into a packet once read (names are copied): memory stays a window.
    if (!inflating_) mapped_->Window(field.offset, field.offset);
    each(field);
  }
}

template <typename F>
void PerfettoReader::ForEachCompressedPacket(const ProtoField& compressed, F&& each) {
  if (inflating_) Fail(compressed.offset, "compressed packets inside compressed packets");
  const std::string inflated = Inflate(compressed);
  // The inflated bytes have no offsets in the file: what is wrong in them, or warned of, is
  // located at the compressed field.
  inflating_ = true;
  compressed_at_ = compressed.offset;
  try {
    ForEachPacket(inflated, 0, each);
  } catch (const ProtoWireError& e) {
    Fail(compressed.offset, std::string("in the packets it inflates to: ") + e.what());
  }
  inflating_ = false;
}

std::string PerfettoReader::Inflate(const ProtoField& field) const {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) Fail(field.offset, "zlib cannot start");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(field.bytes.data()));
  stream.avail_in = static_cast<uInt>(std::min<size_t>(field.bytes.size(), UINT32_MAX));
  std::string out;
  char buffer[65536];
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof(buffer);
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      inflateEnd(&stream);
      Fail(field.offset, "compressed_packets that do not inflate (zlib: " +
                             std::string(stream.msg != nullptr ? stream.msg : "bad data") + ")");
    }
    out.append(buffer, sizeof(buffer) - stream.avail_out);
    if (out.size() > kMaxInflated) {
      inflateEnd(&stream);
      Fail(field.offset, "compressed_packets that inflate to more than 64 MiB");
    }
    if (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      inflateEnd(&stream);
      Fail(field.offset, "compressed_packets cut short");
    }
  }
  inflateEnd(&stream);
  return out;
}

// --- the first pass ---------------------------------------------------------------------------

// A track event's fields: whether one is a legacy event (6) of phase (2) 'P', V8's samples.
bool SkimTrackEvent(const uint8_t* p, const uint8_t* end, bool* v8) {
  while (p < end) {
    uint64_t tag, length;
    const uint8_t* content = nullptr;
    if (!SkimField(&p, end, &tag, &content, &length, nullptr)) return false;
    if (tag != (6 << 3 | 2)) continue;
    const uint8_t* const legacy_end = content + length;
    while (content < legacy_end) {
      uint64_t legacy_tag, legacy_length, value = 0;
      const uint8_t* legacy_content = nullptr;
      if (!SkimField(&content, legacy_end, &legacy_tag, &legacy_content, &legacy_length, &value)) {
        return false;
      }
      if (legacy_tag == (2 << 3) && static_cast<int64_t>(value) == kLegacyPhaseSample) *v8 = true;
    }
  }
  return true;
}

// The first pass's reading of a packet, fast: the field numbers only, no values decoded. False
// when something in it is malformed: then ScanPacketExactly says what, and where.
bool PerfettoReader::SkimPacket(const ProtoField& packet) {
  const auto* begin = reinterpret_cast<const uint8_t*>(packet.bytes.data());
  const uint8_t* p = begin;
  const uint8_t* const end = p + packet.bytes.size();
  while (p < end) {
    const uint8_t* const field_start = p;
    uint64_t tag, length;
    const uint8_t* content = nullptr;
    if (!SkimField(&p, end, &tag, &content, &length, nullptr)) return false;
    const uint64_t number = tag >> 3;
    if (number == kStreamingProfilePacket || number == kPerfSample) kinds_.native = true;
    if (number == kProfilePacket) kinds_.heap = true;
    if ((tag & 7) != 2) continue;
    // Every track event, even once V8's samples are known: a malformed one is refused at its
    // byte here, where the second pass may not read it (a packet it skips).
    if (number == kTrackEvent && !SkimTrackEvent(content, p, &kinds_.v8)) {
      return false;
    }
    if (number == kCompressedPackets) {
      ProtoField compressed;
      compressed.number = kCompressedPackets;
      compressed.type = WireType::kBytes;
      compressed.offset = packet.content_offset + (field_start - begin);
      compressed.content_offset = packet.content_offset + (content - begin);
      compressed.bytes = std::string_view(reinterpret_cast<const char*>(content), length);
      ForEachCompressedPacket(compressed, [&](const ProtoField& inner) { ScanPacket(inner); });
    }
  }
  return true;
}

void PerfettoReader::ScanPacket(const ProtoField& packet) {
  if (!SkimPacket(packet)) ScanPacketExactly(packet);
}

void PerfettoReader::ScanPacketExactly(const ProtoField& packet) {
  ProtoReader reader(packet);
  ProtoField field;
  while (reader.Next(&field)) {
    switch (field.number) {
      case kCompressedPackets:
        if (field.type == WireType::kBytes) {
          ForEachCompressedPacket(field, [&](const ProtoField& inner) { ScanPacket(inner); });
        }
        break;
      case kStreamingProfilePacket:
      case kPerfSample:
        kinds_.native = true;
        break;
      case kProfilePacket:
        kinds_.heap = true;
        break;
      case kTrackEvent: {
        if (field.type != WireType::kBytes) break;
        ProtoReader event(field);
        ProtoField f;
        // (Slices need no scan: they are read whenever the trace has no samples.)
        while (event.Next(&f)) {
          if (f.number != 6 || f.type != WireType::kBytes) continue;
          ProtoReader legacy(f);
          ProtoField l;
          while (legacy.Next(&l)) {
            if (l.number == 2 && l.type == WireType::kVarint &&
                static_cast<int64_t>(l.value) == kLegacyPhaseSample) {
              kinds_.v8 = true;
            }
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

void PerfettoReader::Scan() {
  try {
    ForEachPacket(trace_, 0, [&](const ProtoField& packet) { ScanPacket(packet); });
  } catch (const ProtoWireError& e) {
    Fail(e.offset(), e.what());
  }
}

// --- the second pass --------------------------------------------------------------------------

void PerfettoReader::ReadTrackDescriptor(const ProtoField& field) {
  ForgetLabelSets();  // names may change
  ProtoReader reader(field);
  ProtoField f;
  uint64_t uuid = 0;
  Track track;
  std::string process_name, thread_name;
  while (reader.Next(&f)) {
    if (f.number == 1) uuid = f.value;
    if (f.number == 2 && f.type == WireType::kBytes) track.name = std::string(f.bytes);
    if ((f.number == 3 || f.number == 4) && f.type == WireType::kBytes) {
      // ProcessDescriptor (pid 1, process_name 6) or ThreadDescriptor (pid 1, tid 2,
      // thread_name 5).
      ProtoReader descriptor(f);
      ProtoField d;
      while (descriptor.Next(&d)) {
        if (d.number == 1 && d.type == WireType::kVarint) track.pid = static_cast<int32_t>(d.value);
        if (f.number == 4 && d.number == 2 && d.type == WireType::kVarint) {
          track.tid = static_cast<int32_t>(d.value);
        }
        if (f.number == 3 && d.number == 6 && d.type == WireType::kBytes) {
          process_name = std::string(d.bytes);
        }
        if (f.number == 4 && d.number == 5 && d.type == WireType::kBytes) {
          thread_name = std::string(d.bytes);
        }
      }
    }
  }
  // A process's first name (Chrome's later descriptors of a renderer name it by its command
  // line: "Renderer" first).
  if (track.pid && !process_name.empty()) process_names_.emplace(*track.pid, process_name);
  if (track.tid && !thread_name.empty()) thread_names_[*track.tid] = thread_name;
  if (track.name.empty()) track.name = !thread_name.empty() ? thread_name : process_name;
  if (track.tid && !track.name.empty() && thread_names_.count(*track.tid) == 0) {
    thread_names_[*track.tid] = track.name;
  }
  tracks_[uuid] = std::move(track);
}

void PerfettoReader::ReadProcessTree(const ProtoField& field) {
  ForgetLabelSets();  // names may change
  ProtoReader reader(field);
  ProtoField f;
  while (reader.Next(&f)) {
    if (f.type != WireType::kBytes || (f.number != 1 && f.number != 2)) continue;
    ProtoReader entry(f);
    ProtoField e;
    std::optional<int64_t> id;
    std::string name;
    while (entry.Next(&e)) {
      if (e.number == 1 && e.type == WireType::kVarint) id = static_cast<int32_t>(e.value);
      // A process's program (the first word of its command line, without its directory; Chrome
      // writes the whole line as one word), a thread's name.
      if (f.number == 1 && e.number == 3 && e.type == WireType::kBytes && name.empty()) {
        name = std::string(e.bytes.substr(0, e.bytes.find(' ')));
        const size_t slash = name.rfind('/');
        if (slash != std::string::npos && slash + 1 < name.size()) name = name.substr(slash + 1);
      }
      if (f.number == 2 && e.number == 2 && e.type == WireType::kBytes) name = std::string(e.bytes);
    }
    if (!id || name.empty()) continue;
    // A descriptor's name, when there is one, is the better one.
    (f.number == 1 ? process_names_ : thread_names_).emplace(*id, name);
  }
}

void PerfettoReader::ReadThreadDescriptor(const ProtoField& field, PerfettoSequence* sequence) {
  ForgetLabelSets();  // names may change
  ProtoReader reader(field);
  ProtoField f;
  std::string name;
  while (reader.Next(&f)) {
    if (f.number == 1 && f.type == WireType::kVarint) sequence->pid = static_cast<int32_t>(f.value);
    if (f.number == 2 && f.type == WireType::kVarint) sequence->tid = static_cast<int32_t>(f.value);
    if (f.number == 5 && f.type == WireType::kBytes) name = std::string(f.bytes);
    if (f.number == 6 && f.type == WireType::kVarint) {
      sequence->event_time_ns = MicrosToNanos(f.Signed());
    }
  }
  if (sequence->tid && !name.empty()) thread_names_[*sequence->tid] = name;
}

const Track* PerfettoReader::TrackOf(uint64_t uuid, const PerfettoSequence& sequence) const {
  if (uuid == 0 && sequence.default_track) uuid = *sequence.default_track;
  const auto track = tracks_.find(uuid);
  return track == tracks_.end() ? nullptr : &track->second;
}

std::vector<Label> PerfettoReader::Labels(std::optional<int64_t> pid,
                                          std::optional<int64_t> tid) const {
  std::vector<Label> labels;
  if (pid) {
    labels.push_back(Label::Number(kPidLabel, *pid));
    const auto name = process_names_.find(*pid);
    if (name != process_names_.end()) labels.push_back(Label::String(kProcessLabel, name->second));
  }
  if (tid) {
    labels.push_back(Label::Number(kTidLabel, *tid));
    const auto name = thread_names_.find(*tid);
    if (name != thread_names_.end()) labels.push_back(Label::String(kThreadLabel, name->second));
  }
  return labels;
}

void PerfettoReader::ReadV8Event(const ProtoField& annotation_json, const std::string& name,
                                 int64_t pid, std::optional<int64_t> tid, const std::string& id,
                                 int64_t ts_ns) {
  // The event's args.data, as the JSON trace has it: parsed as that reader parses it, messages
  // naming the packet's byte.
  const std::string where = name_ + ": byte " + std::to_string(Where(annotation_json.offset)) +
                            ": the " + name + " event's data";
  Input input =
      OpenInputStream(std::make_unique<MemoryStream>(std::string(annotation_json.bytes)), where);
  JsonDocument json(input, context_.max_input_size, "JSON");
  V8Profile nodes(name_);
  V8ProfileFields data;
  ondemand::object object;
  if (const auto error = json.doc().get_object().get(object)) json.Fail(error, "data", "an object");
  ReadV8EventData(json, object, &nodes, &data);
  v8_.Add(name, pid, tid, id, ts_ns, &nodes, &data, Where(annotation_json.offset));
}

void PerfettoReader::ReadTrackEvent(const ProtoField& field, std::optional<uint64_t> packet_ns,
                                    PerfettoSequence* sequence) {
  ProtoReader reader(field);
  ProtoField f;
  uint64_t type = 0, track_uuid = 0, name_iid = 0;
  std::optional<std::string> name;
  std::optional<int64_t> delta_us, absolute_us;
  std::optional<ProtoField> legacy;
  std::vector<ProtoField> annotations;
  while (reader.Next(&f)) {
    switch (f.number) {
      case 1:
        delta_us = f.Signed();
        break;
      case 4:
        annotations.push_back(f);
        break;
      case 6:
        legacy = f;
        break;
      case 9:
        type = f.value;
        break;
      case 10:
        name_iid = f.value;
        break;
      case 11:
        track_uuid = f.value;
        break;
      case 16:
        absolute_us = f.Signed();
        break;
      case 23:
        if (f.type == WireType::kBytes) name = std::string(f.bytes);
        break;
      default:
        break;
    }
  }
  // The time: the packet's, else (older Chrome) the thread's running sum of deltas.
  int64_t ts_ns;
  if (packet_ns) {
    ts_ns = static_cast<int64_t>(std::min<uint64_t>(*packet_ns, INT64_MAX));
  } else if (absolute_us) {
    ts_ns = MicrosToNanos(*absolute_us);
  } else {
    sequence->event_time_ns += MicrosToNanos(delta_us.value_or(0));
    ts_ns = sequence->event_time_ns;
  }
  int64_t phase = 0, duration_us = 0;
  std::optional<int64_t> pid_override, tid_override;
  std::string id;
  if (legacy) {
    ProtoReader l(*legacy);
    ProtoField g;
    while (l.Next(&g)) {
      if (g.number == 1 && name_iid == 0) name_iid = g.value;
      if (g.number == 2) phase = g.Signed();
      if (g.number == 3) duration_us = g.Signed();
      if (g.number == 6 || g.number == 10 || g.number == 11) id = HexId(g.value);
      if (g.number == 18) pid_override = static_cast<int32_t>(g.value);
      if (g.number == 19) tid_override = static_cast<int32_t>(g.value);
    }
  }
  if (!name && name_iid != 0) {
    if (const std::string* interned = sequence->EventName(name_iid)) name = *interned;
  }
  const Track* track = TrackOf(track_uuid, *sequence);
  std::optional<int64_t> pid = pid_override, tid = tid_override;
  if (!pid) pid = track != nullptr && track->pid ? track->pid : sequence->pid;
  if (!tid) tid = track != nullptr && track->tid ? track->tid : sequence->tid;

  if (phase == kLegacyPhaseSample && name &&
      (*name == "Profile" || *name == "ProfileChunk" || *name == "CpuProfile")) {
    if (!kinds_.v8) return;
    for (const ProtoField& annotation : annotations) {
      ProtoReader a(annotation);
      ProtoField g;
      std::string key;
      std::optional<ProtoField> json;
      while (a.Next(&g)) {
        if (g.number == 1) {
          if (const std::string* interned = sequence->AnnotationName(g.value)) key = *interned;
        }
        if (g.number == 10 && g.type == WireType::kBytes) key = std::string(g.bytes);
        if (g.number == 9 && g.type == WireType::kBytes) json = g;
      }
      if (key != "data") continue;
      if (!json) {
        not_v8_data_.Add(Where(annotation.offset));
        continue;
      }
      if (*name != "CpuProfile" && id.empty()) {
        Fail(field.offset, "a " + *name + " event without an id (its profile's id)");
      }
      ReadV8Event(*json, *name, pid.value_or(0), tid, id, ts_ns);
    }
    return;
  }
  if (kinds_.v8 || kinds_.native || kinds_.heap) return;  // samples are the profile
  // Spans: by track (a sequence's own thread when it has no track).
  const uint64_t key =
      track_uuid != 0 ? track_uuid
      : sequence->default_track
          ? *sequence->default_track
          : (uint64_t{1} << 63) | static_cast<uint64_t>(tid.value_or(0) & 0xffffffff);
  auto inserted = spans_.emplace(key, ThreadSpans());
  if (inserted.second) span_labels_.emplace_back(key, Labels(pid, tid));
  ThreadSpans& spans = inserted.first->second;
  const char legacy_phase = static_cast<char>(phase);
  if (type == 1 || (type == 0 && legacy_phase == 'B')) {
    spans.Begin(ts_ns, name.value_or(""), field.offset);
  } else if (type == 2 || (type == 0 && legacy_phase == 'E')) {
    spans.End(ts_ns, "", field.offset);
  } else if (type == 3 || (type == 0 && (legacy_phase == 'I' || legacy_phase == 'i'))) {
    spans.Complete(ts_ns, 0, name.value_or(""), field.offset);
  } else if (type == 0 && legacy_phase == 'X' && duration_us >= 0) {
    const int64_t duration = MicrosToNanos(duration_us);
    if (ts_ns <= INT64_MAX - duration) {
      spans.Complete(ts_ns, duration, name.value_or(""), field.offset);
    }
  }
}

void PerfettoReader::EmitNative(uint64_t stack, std::optional<int64_t> ns,
                                std::optional<int64_t> pid, std::optional<int64_t> tid,
                                std::optional<int64_t> cpu) {
  // Millions of samples, a few threads: a sample kept for each label set (labels made once,
  // never copied), until a name is learned.
  constexpr int64_t kNone = INT64_MIN;
  const std::array<int64_t, 3> key = {pid.value_or(kNone), tid.value_or(kNone),
                                      cpu.value_or(kNone)};
  const auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  constexpr uint64_t kMix = 0x9e3779b97f4a7c15u;  // odd, bits spread: the top eight bits index
  LabelSetSeen& seen =
      label_sets_seen_[((u(key[0]) * kMix + u(key[1])) * kMix + u(key[2])) * kMix >> 56];
  if (seen.sample == nullptr || seen.key != key) {
    auto set = label_sets_.find(key);
    if (set == label_sets_.end()) {
      Sample sample;
      sample.source_id = 1;
      sample.values.assign(columns_, 0);
      sample.values[samples_column_] = 1;
      sample.labels = Labels(pid, tid);
      if (cpu) sample.labels.push_back(Label::Number("cpu", *cpu));
      sample.labels_id = ++label_set_ids_;
      set = label_sets_.emplace(key, std::move(sample)).first;
    }
    seen = LabelSetSeen{key, &set->second};  // (an unordered_map's entries never move)
  }
  Sample& sample = *seen.sample;
  sample.stack_id = stack;
  sample.time_nanos = ns;
  sink_->OnSample(sample);
  ++native_samples_;
}

void PerfettoReader::ReadStreamingProfile(const ProtoField& field,
                                          std::optional<uint64_t> packet_ns,
                                          PerfettoSequence* sequence) {
  std::vector<uint64_t> callstacks;
  std::vector<int64_t> deltas;
  ProtoReader reader(field);
  ProtoField f;
  while (reader.Next(&f)) {
    if (f.number == 1) ProtoReader::ForEachVarint(f, [&](uint64_t v) { callstacks.push_back(v); });
    if (f.number == 2) {
      ProtoReader::ForEachVarint(f, [&](uint64_t v) { deltas.push_back(static_cast<int64_t>(v)); });
    }
  }
  const Track* track = TrackOf(0, *sequence);
  const std::optional<int64_t> pid = track != nullptr && track->pid ? track->pid : sequence->pid;
  const std::optional<int64_t> tid = track != nullptr && track->tid ? track->tid : sequence->tid;
  // The first sample's delta counts from the packet's time (from the thread's running time in
  // traces whose packets have none), each next one from the sample before.
  int64_t ns = packet_ns ? static_cast<int64_t>(std::min<uint64_t>(*packet_ns, INT64_MAX))
                         : sequence->event_time_ns;
  for (size_t i = 0; i < callstacks.size(); ++i) {
    if (i < deltas.size()) AddSaturating(&ns, MicrosToNanos(deltas[i]));
    const std::optional<uint64_t> stack = sequence->Stack(callstacks[i], interner_);
    if (!stack) {
      undefined_stacks_.Add(Where(field.offset));
      continue;
    }
    EmitNative(*stack, ns, pid, tid, std::nullopt);
  }
  if (!packet_ns) sequence->event_time_ns = ns;
}

void PerfettoReader::ReadPerfSample(const ProtoField& field, std::optional<uint64_t> packet_ns,
                                    PerfettoSequence* sequence) {
  ProtoReader reader(field);
  ProtoField f;
  std::optional<int64_t> cpu, pid, tid;
  uint64_t callstack = 0;
  bool lost = false;
  while (reader.Next(&f)) {
    if (f.type != WireType::kVarint) continue;
    if (f.number == 1) cpu = static_cast<uint32_t>(f.value);
    if (f.number == 2) pid = static_cast<uint32_t>(f.value);
    if (f.number == 3) tid = static_cast<uint32_t>(f.value);
    if (f.number == 4) callstack = f.value;
    if (f.number == 17 || f.number == 18) lost = true;  // records lost, or a sample skipped
  }
  if (lost || callstack == 0) {
    lost_records_.Add(Where(field.offset));
    return;
  }
  const std::optional<uint64_t> stack = sequence->Stack(callstack, interner_);
  if (!stack) {
    undefined_stacks_.Add(Where(field.offset));
    return;
  }
  std::optional<int64_t> ns;
  if (packet_ns) ns = static_cast<int64_t>(std::min<uint64_t>(*packet_ns, INT64_MAX));
  EmitNative(*stack, ns, pid, tid, cpu);
}

void PerfettoReader::ReadProfilePacket(const ProtoField& field, uint32_t sequence_id,
                                       PerfettoSequence* sequence) {
  sequence->InternProfileTables(field);
  bool continued = false;
  std::vector<ProtoField> dumps;
  ProtoReader reader(field);
  ProtoField f;
  while (reader.Next(&f)) {
    if (f.number == 5 && f.type == WireType::kBytes) dumps.push_back(f);
    if (f.number == 6) continued = f.value != 0;
  }
  bool& previous_continued = heap_continued_[sequence_id];
  for (const ProtoField& dump : dumps) {
    ProtoReader d(dump);
    ProtoField g;
    std::optional<int64_t> pid;
    std::vector<ProtoField> rows;
    while (d.Next(&g)) {
      if (g.number == 1 && g.type == WireType::kVarint) pid = static_cast<int64_t>(g.value);
      if (g.number == 2 && g.type == WireType::kBytes) rows.push_back(g);
    }
    const int64_t process = pid.value_or(0);
    std::vector<HeapRow>& heap = heap_[process];
    if (!previous_continued) {  // a new dump of the process: it holds all the earlier one did
      heap.clear();
      ++heap_dumps_[process];
    }
    for (const ProtoField& row : rows) {
      ProtoReader r(row);
      ProtoField h;
      uint64_t callstack = 0;
      HeapRow values{0, 0, 0, 0, 0, 0};
      while (r.Next(&h)) {
        if (h.type != WireType::kVarint) continue;
        const int64_t v = static_cast<int64_t>(std::min<uint64_t>(h.value, INT64_MAX));
        switch (h.number) {
          case 1:
            callstack = h.value;
            break;
          case 2:
            values.allocated = v;
            break;
          case 3:
            values.freed = v;
            break;
          case 5:
            values.allocs = v;
            break;
          case 6:
            values.frees = v;
            break;
          case 8:
            values.max = v;
            break;
          default:
            break;
        }
      }
      const std::optional<uint64_t> stack = sequence->Stack(callstack, interner_);
      if (!stack) {
        undefined_stacks_.Add(Where(row.offset));
        continue;
      }
      values.stack = *stack;
      heap.push_back(values);
    }
  }
  previous_continued = continued;
}

void PerfettoReader::ReadPacket(const ProtoField& packet) {
  // The fields that say how to read the others first: the sequence, its flags, its defaults
  // and interned data, then the packet's data.
  ProtoReader reader(packet);
  ProtoField f;
  uint32_t sequence_id = 0;
  uint64_t flags = 0;
  bool cleared = false, dropped = false;
  std::optional<uint64_t> packet_ns;
  std::optional<ProtoField> defaults, data;
  std::vector<ProtoField> interned;
  while (reader.Next(&f)) {
    switch (f.number) {
      case kTimestamp:
        packet_ns = f.value;
        break;
      case kSequenceId:
        sequence_id = static_cast<uint32_t>(f.value);
        break;
      case kSequenceFlags:
        flags = f.value;
        break;
      case kIncrementalStateCleared:
        cleared = f.value != 0;
        break;
      case kPreviousPacketDropped:
        dropped = f.value != 0;
        break;
      case kInternedData:
        interned.push_back(f);
        break;
      case kTracePacketDefaults:
        defaults = f;
        break;
      case kCompressedPackets:
        if (f.type == WireType::kBytes) {
          ForEachCompressedPacket(f, [&](const ProtoField& inner) { ReadPacket(inner); });
        }
        break;
      case kProcessTree:
      case kTrackEvent:
      case kProfilePacket:
      case kProcessDescriptor:
      case kThreadDescriptor:
      case kStreamingProfilePacket:
      case kTrackDescriptor:
      case kPerfSample:
        if (f.type == WireType::kBytes) data = f;
        break;
      default:
        break;
    }
  }
  // Packets come in runs of one sequence: the last one's state is at hand.
  if (last_sequence_ == nullptr || sequence_id != last_sequence_id_) {
    // A trace has a sequence per writer (thousands at most): many more is no trace to hold.
    if (sequences_.size() >= kMaxSequences && sequences_.count(sequence_id) == 0) {
      Fail(packet.offset, "more than " + std::to_string(kMaxSequences) +
                              " packet sequences (trusted_packet_sequence_id): not a trace this "
                              "reader holds");
    }
    last_sequence_ = &sequences_[sequence_id];  // (an unordered_map's entries never move)
    last_sequence_id_ = sequence_id;
  }
  PerfettoSequence& sequence = *last_sequence_;
  if (dropped) sequence.valid = false;  // what was interned before the loss may be missing
  if (cleared || (flags & kSeqIncrementalStateCleared) != 0) sequence.Clear();
  if ((flags & kSeqNeedsIncrementalState) != 0 && !sequence.valid) {
    skipped_packets_.Add(Where(packet.offset));
    return;
  }
  if (defaults) {
    ProtoReader d(*defaults);
    ProtoField g;
    while (d.Next(&g)) {
      if (g.number != 11 || g.type != WireType::kBytes) continue;  // track_event_defaults
      ProtoReader t(g);
      ProtoField h;
      while (t.Next(&h)) {
        if (h.number == 11 && h.type == WireType::kVarint) sequence.default_track = h.value;
      }
    }
  }
  for (const ProtoField& entries : interned) sequence.Intern(entries);
  if (!data) return;
  switch (data->number) {
    case kProcessTree:
      ReadProcessTree(*data);
      break;
    case kTrackDescriptor:
      ReadTrackDescriptor(*data);
      break;
    case kThreadDescriptor:
      ReadThreadDescriptor(*data, &sequence);
      break;
    case kTrackEvent:
      ReadTrackEvent(*data, packet_ns, &sequence);
      break;
    case kStreamingProfilePacket:
      if (kinds_.native) ReadStreamingProfile(*data, packet_ns, &sequence);
      break;
    case kPerfSample:
      if (kinds_.native) ReadPerfSample(*data, packet_ns, &sequence);
      break;
    case kProfilePacket:
      if (kinds_.heap) ReadProfilePacket(*data, sequence_id, &sequence);
      break;
    default:
      break;
  }
}

void PerfettoReader::Read(ProfileSink* sink) {
  ProfileHeader header;
  header.sources.push_back(Source{1, "perfetto", context_.uri, std::nullopt});
  const bool samples = kinds_.v8 || kinds_.native || kinds_.heap;
  if (kinds_.v8) {
    header.types = V8ValueTypes();
    header.default_type = kV8DefaultType;
  } else if (kinds_.native) {
    header.types.push_back({"samples", "count"});
    header.default_type = "samples";
  }
  samples_column_ = 0;  // V8's types start with samples/count too
  if (kinds_.heap) {
    heap_column_ = header.types.size();
    for (const ValueType& type : std::vector<ValueType>{{"inuse_space", "bytes"},
                                                        {"inuse_objects", "count"},
                                                        {"alloc_space", "bytes"},
                                                        {"alloc_objects", "count"}}) {
      header.types.push_back(type);
    }
    if (header.default_type.empty()) header.default_type = "inuse_space";
  }
  if (!samples) {
    header.types = SpanValueTypes();
    header.default_type = kSpanDefaultType;
  }
  columns_ = header.types.size();
  sink->OnHeader(header);
  Interner interner(sink);
  interner.LimitFrames(context_.max_implied_frames(), name_);
  sink_ = sink;
  interner_ = &interner;
  sample_.source_id = 1;
  try {
    ForEachPacket(trace_, 0, [&](const ProtoField& packet) { ReadPacket(packet); });
  } catch (const ProtoWireError& e) {
    Fail(e.offset(), e.what());
  }
  uint64_t total = native_samples_;
  ColumnSink columns(sink, 0, columns_);
  if (kinds_.v8) {
    total += v8_.Finish();
    v8_.Convert(
        &interner, 1, [&](int64_t pid, std::optional<int64_t> tid) { return Labels(pid, tid); },
        &columns, context_);
  }
  for (const auto& process : heap_) {
    for (const HeapRow& row : process.second) {
      sample_.stack_id = row.stack;
      sample_.time_nanos.reset();
      sample_.values.assign(columns_, 0);
      // With dump_at_max, heapprofd gives the bytes live at the peak (self_max) alone.
      const int64_t inuse =
          row.allocated == 0 && row.freed == 0 ? row.max : row.allocated - row.freed;
      sample_.values[heap_column_] = std::max<int64_t>(inuse, 0);
      sample_.values[heap_column_ + 1] = std::max<int64_t>(row.allocs - row.frees, 0);
      sample_.values[heap_column_ + 2] = row.allocated;
      sample_.values[heap_column_ + 3] = row.allocs;
      sample_.labels = Labels(process.first, std::nullopt);
      sink->OnSample(sample_);
      ++total;
    }
  }
  if (!samples) {
    ThreadSpans::Unmatched unmatched;
    for (const auto& labels : span_labels_) {
      spans_[labels.first].Convert(&interner, 1, labels.second, &columns, &unmatched);
      ++total;
    }
    if (unmatched.ends > 0) {
      context_.Warn(name_, "byte " + std::to_string(unmatched.first_end_byte) + ": " +
                               std::to_string(unmatched.ends) +
                               (unmatched.ends == 1 ? " slice end" : " slice ends") +
                               " with no slice open on the track, ignored");
    }
    if (unmatched.begins > 0) {
      context_.Warn(name_, "byte " + std::to_string(unmatched.first_begin_byte) + ": " +
                               std::to_string(unmatched.begins) +
                               (unmatched.begins == 1 ? " slice" : " slices") +
                               " never ended: each closed at its track's last time in the trace");
    }
    if (unmatched.clipped > 0) {
      context_.Warn(name_, "byte " + std::to_string(unmatched.first_clipped_byte) + ": " +
                               std::to_string(unmatched.clipped) +
                               (unmatched.clipped == 1 ? " slice runs" : " slices run") +
                               " past the end of the slice around it on its track: cut at that "
                               "end, so that no time is counted twice");
    }
  }
  if (total == 0 && !context_.allow_empty) {
    throw ProfError(name_,
                    "a Perfetto trace without samples (V8's Profile and ProfileChunk events, "
                    "StreamingProfilePacket, PerfSample, heapprofd's ProfilePacket) or track event "
                    "slices (--allow-empty reads it as a profile without samples)");
  }
  Warnings();
  sink->OnEnd();
}

void PerfettoReader::Warnings() const {
  const auto warn = [&](const Tally& tally, const std::string& what) {
    if (tally.count == 0) return;
    context_.Warn(name_, "byte " + std::to_string(tally.first_byte) + ": " +
                             std::to_string(tally.count) + " " + what);
  };
  warn(skipped_packets_,
       "packet(s) skipped: they need interned data their sequence lost (the trace's ring buffer "
       "wrapped, or the recording started mid-sequence)");
  warn(undefined_stacks_,
       "sample(s) left out: their callstack, or a frame or mapping of it, is defined nowhere on "
       "their sequence");
  warn(lost_records_,
       "PerfSample packet(s) that are not samples: the kernel lost records, or the profiler "
       "skipped a sample it could not unwind");
  warn(not_v8_data_, "V8 profile event(s) whose data is not JSON, left out");
  for (const auto& dumps : heap_dumps_) {
    if (dumps.second > 1) {
      context_.Warn(name_, "process " + std::to_string(dumps.first) + ": " +
                               std::to_string(dumps.second) +
                               " heapprofd dumps; the last is read (each holds the ones before)");
    }
  }
}

void ReadPerfettoInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  if (!input.head.empty() && (input.text || input.head[0] != 0x0a)) {
    // A Trace message holds its packets only (field 1, length-delimited: the byte 0x0a).
    throw ProfError(input.name, "byte 0: not a Perfetto trace (" +
                                    std::string(input.text ? "text" : "binary data") +
                                    " where a Trace's first packet should start)");
  }
  MappedInput data(input, context.max_spool_size);
  PerfettoReader reader(&data, input, context);
  reader.Scan();
  data.Rewind();
  reader.Read(sink);
}

}  // namespace

int SniffPerfetto(std::string_view head, bool text) {
  if (text || head.size() < 2 || head[0] != 0x0a) return kNotMine;
  // The first packet (field 1 of Trace), as far as the head holds it: its fields must parse,
  // and one must be of a TracePacket and of no pprof ValueType (whose fields are 1 and 2,
  // varints: a pprof profile starts with field 1 too).
  try {
    size_t i = 1;
    const uint64_t length = ProtoReader::ReadVarint(head, &i, 0);
    const std::string_view packet = head.substr(i, std::min<uint64_t>(length, head.size() - i));
    ProtoReader reader(packet, i);
    ProtoField field;
    bool tracepacket_field = false;
    while (true) {
      bool more;
      try {
        more = reader.Next(&field);
      } catch (const ProtoWireError&) {
        if (length > packet.size()) break;  // cut by the head
        return kNotMine;
      }
      if (!more) break;
      if (field.number > 2 || field.type == WireType::kBytes) tracepacket_field = true;
    }
    return tracepacket_field ? kCertain : kNotMine;
  } catch (const ProtoWireError&) {
    return kNotMine;
  }
}

const ReaderSpec kPerfettoReader = {
    "perfetto",
    "a Perfetto trace (protobuf)",
    ReaderShape::kTwoPasses,
    nullptr,
    SniffPerfetto,
    ReadPerfettoInput,
};

}  // namespace proftools
