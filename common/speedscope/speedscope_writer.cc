#include "common/speedscope/speedscope_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/counted.h"
#include "common/base/json_string.h"
#include "common/base/units.h"
#include "common/model/producer_kit.h"
#include "common/model/writer_kit.h"
#include "common/speedscope/speedscope_file.h"
#include "common/speedscope/speedscope_units.h"
#include "common/speedscope/track_records.h"

namespace proftools {
namespace {

// JavaScript reads numbers as doubles: integers beyond 2^53 are not exact.
constexpr int64_t kMaxExact = int64_t{1} << 53;

// The sink that writes the file (the profile's definitions kept, its samples spooled).
class SpeedscopeWriter : public ProfileSink {
 public:
  // `value`: the type that weighs the samples ("": the default type). `warn`: what the format
  // cannot keep, named after the profile.
  SpeedscopeWriter(ByteSink* out, std::string value, WriterWarnings warn)
      : output_(out), value_(std::move(value)), warn_(std::move(warn)) {}

  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override { mapping_files_[mapping.id] = mapping.file; }
  void OnFunction(const Function& function) override {
    functions_[function.id] = FunctionInfo{function.name, function.file};
  }
  void OnLocation(const Location& location) override { locations_[location.id] = location; }
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

 private:
  struct FunctionInfo {
    std::string name, file;
  };
  struct Frame {
    std::string name, file;
    int64_t line, column;
  };
  struct Track {
    std::string name;
    std::vector<bool> nonzero;  // per type: a sample has a value other than 0
    // Known at the end (Decide):
    int type = -1;             // the type that weighs it
    bool by_duration = false;  // `type` is not the default's: it keeps the samples' time order
    WrittenUnit unit{"none", 1};
    bool evented = false;
    uint64_t timed = 0;  // samples with a TIME
    uint64_t empty = 0;  // samples without frames
    uint64_t negative = 0;
    int64_t first_time = 0, end = 0;  // the first sample's time, the last one's end
    int64_t sum = 0;                  // the weights (sampled)
  };
  // A sample's record in `records_`: its stack's index, TIME (kNoTime: none), DURATION (-1:
  // none), then its values.
  enum Field { kStack, kTime, kDuration, kValues };
  static constexpr int64_t kNoTime = INT64_MIN;

  uint32_t FrameFor(Frame frame);
  // The frames of a location, outermost first (made on its first use, then kept).
  const std::vector<uint32_t>& LocationFrames(const Location& location);
  uint32_t TrackFor(const Sample& sample);
  uint32_t FindTrack(const Sample& sample);  // TrackFor without its cache
  // Chooses the track's type and form, in a pass over its records.
  void Decide(uint32_t t);
  // Per type, whether it can weigh the track's samples as an evented profile (every sample
  // timed, one after the other, each with a duration that is its value in the type, a time),
  // and then the first sample's time and the last one's end: one pass over the track's records.
  struct EventedSpan {
    bool ok = false;
    int64_t first_time = 0, end = 0;
  };
  std::vector<EventedSpan> EventedSpans(uint32_t t) const;
  // The weight of `record` in the track's type and unit (negative: 0).
  int64_t WeightOf(const Track& track, const int64_t* record) const;
  // The frame indexes of stack `index`, comma-separated: made once per stack, since a sampled
  // profile writes them for every sample.
  const std::string& StackText(int64_t index);
  void WriteSampled(uint32_t t);
  void WriteEvented(uint32_t t);

  BufferedOutput output_;
  std::string& buffer_ = output_.buffer();  // flushed to the output in blocks
  std::string value_;
  WriterWarnings warn_;
  ProfileHeader header_;
  int weight_index_ = -1;  // the type --value names, else the default type

  std::unordered_map<uint64_t, std::string> mapping_files_;
  std::unordered_map<uint64_t, FunctionInfo> functions_;
  std::unordered_map<uint64_t, Location> locations_;
  std::vector<Frame> frames_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> location_frames_;
  std::unordered_map<std::string, uint32_t> frame_index_;
  std::unordered_map<uint64_t, uint32_t> stack_index_;  // stack id -> index in stack_frames_
  std::vector<std::vector<uint32_t>> stack_frames_;     // root first
  std::vector<std::string> stack_texts_;                // StackText's, "" until made

  std::map<std::string, uint32_t> track_index_;
  bool has_last_ = false;  // TrackFor's cache: the last sample's source, labels and answer
  uint64_t last_source_ = 0;
  std::vector<Label> last_labels_;
  bool last_other_ = false;
  uint32_t last_track_ = 0;
  std::vector<Track> tracks_;
  std::unique_ptr<TrackRecords> records_;
  std::vector<int64_t> record_;

  uint64_t labelled_ = 0;
};

void SpeedscopeWriter::OnHeader(const ProfileHeader& header) {
  header_ = header;
  weight_index_ = ValueTypeIndex(header, value_);
  records_ = std::make_unique<TrackRecords>(warn_.file(), kValues + header.types.size());
  record_.assign(kValues + header.types.size(), 0);
}

uint32_t SpeedscopeWriter::FrameFor(Frame frame) {
  std::string key = frame.name;
  key += '\0';
  key += frame.file;
  key += '\0';
  key += std::to_string(frame.line) + ':' + std::to_string(frame.column);
  const auto inserted = frame_index_.emplace(std::move(key), frames_.size());
  if (inserted.second) frames_.push_back(std::move(frame));
  return inserted.first->second;
}

const std::vector<uint32_t>& SpeedscopeWriter::LocationFrames(const Location& location) {
  const auto cached = location_frames_.find(location.id);
  if (cached != location_frames_.end()) return cached->second;
  std::vector<uint32_t>& frames = location_frames_[location.id];
  const auto mapping = mapping_files_.find(location.mapping_id);
  const std::string file = mapping == mapping_files_.end() ? std::string() : mapping->second;
  if (location.lines.empty()) {
    // Named as the reports name it (report/frames): its mapping's file, else its address.
    char address[24];
    std::snprintf(address, sizeof address, "0x%llx",
                  static_cast<unsigned long long>(location.address));
    frames.push_back(FrameFor(Frame{!file.empty()           ? "[" + Basename(file) + "]"
                                    : location.address != 0 ? std::string(address)
                                                            : std::string("[unknown]"),
                                    file, 0, 0}));
    return frames;
  }
  for (auto line = location.lines.rbegin(); line != location.lines.rend(); ++line) {
    const auto function = functions_.find(line->function_id);
    if (function == functions_.end()) continue;
    frames.push_back(
        FrameFor(Frame{function->second.name, function->second.file, line->line, line->column}));
  }
  return frames;
}

void SpeedscopeWriter::OnStack(const Stack& stack) {
  std::vector<uint32_t> frames;
  for (auto id = stack.location_ids.rbegin(); id != stack.location_ids.rend(); ++id) {
    const auto found = locations_.find(*id);
    if (found == locations_.end()) continue;  // the checker refuses this before it comes here
    const std::vector<uint32_t>& more = LocationFrames(found->second);
    frames.insert(frames.end(), more.begin(), more.end());
  }
  stack_index_[stack.id] = static_cast<uint32_t>(stack_frames_.size());
  stack_frames_.push_back(std::move(frames));
}

uint32_t SpeedscopeWriter::TrackFor(const Sample& sample) {
  // Consecutive samples mostly come from one thread: the last one's answer, when its source
  // and labels are the same.
  if (has_last_ && sample.source_id == last_source_ && sample.labels == last_labels_) {
    if (last_other_) ++labelled_;
    return last_track_;
  }
  const uint64_t labelled = labelled_;
  const uint32_t track = FindTrack(sample);
  has_last_ = true;
  last_source_ = sample.source_id;
  last_labels_ = sample.labels;
  last_other_ = labelled_ != labelled;
  last_track_ = track;
  return track;
}

uint32_t SpeedscopeWriter::FindTrack(const Sample& sample) {
  const ThreadLabels labels = ThreadLabelsOf(sample);
  const std::optional<int64_t>& pid = labels.pid;
  const std::optional<int64_t>& tid = labels.tid;
  const std::string *thread = labels.thread, *comm = labels.comm;
  // A process's name is not kept either.
  if (labels.others || labels.process != nullptr) ++labelled_;
  std::string key = ThreadKey(sample.source_id, labels, /*with_comm=*/true);
  const auto inserted = track_index_.emplace(std::move(key), tracks_.size());
  if (!inserted.second) return inserted.first->second;
  Track track;
  if (thread != nullptr) {
    track.name = *thread;
  } else if (comm != nullptr) {
    track.name = *comm;
  } else if (const Source* source = header_.FindSource(sample.source_id)) {
    track.name = !source->uri.empty() ? Basename(source->uri) : source->type;
  }
  const auto suffix = [&](const std::string& text) {
    track.name += (track.name.empty() ? "" : " ") + text;
  };
  if (tid) {
    suffix("(tid " + std::to_string(*tid) + ")");
  } else if (pid) {
    suffix("(pid " + std::to_string(*pid) + ")");
  }
  if (header_.sources.size() > 1) suffix("[source " + std::to_string(sample.source_id) + "]");
  track.nonzero.assign(header_.types.size(), false);
  tracks_.push_back(std::move(track));
  return inserted.first->second;
}

void SpeedscopeWriter::OnSample(const Sample& sample) {
  const uint32_t t = TrackFor(sample);
  Track& track = tracks_[t];
  const auto stack = stack_index_.find(sample.stack_id);
  record_[kStack] = stack == stack_index_.end() ? -1 : stack->second;
  record_[kTime] = sample.time_nanos.value_or(kNoTime);
  record_[kDuration] = sample.duration_nanos.value_or(-1);
  for (size_t i = 0; i < header_.types.size(); ++i) {
    const int64_t value = i < sample.values.size() ? sample.values[i] : 0;
    record_[kValues + i] = value;
    if (value != 0) track.nonzero[i] = true;
  }
  records_->Add(t, record_.data());
}

int64_t SpeedscopeWriter::WeightOf(const Track& track, const int64_t* record) const {
  if (track.type < 0) return 1;
  int64_t weight = std::max<int64_t>(0, record[kValues + track.type]);
  if (__builtin_mul_overflow(weight, track.unit.factor, &weight)) weight = INT64_MAX;
  return weight;
}

void SpeedscopeWriter::Decide(uint32_t t) {
  Track& track = tracks_[t];
  // The type: --value's, else the default type, unless every sample of the thread is 0 in it
  // and another type has values (a speedscope file read back: one type per unit).
  track.type = weight_index_;
  if (value_.empty() && track.type >= 0 && !track.nonzero[track.type]) {
    for (size_t i = 0; i < track.nonzero.size(); ++i) {
      if (track.nonzero[i]) {
        track.type = static_cast<int>(i);
        break;
      }
    }
  }
  // The evented form: timed samples one after the other, each weighing its duration. Without
  // --value, a thread that the default type cannot weigh so but another time type can (a
  // .cpuprofile's wall beside its cpu) is weighed by that one: its samples keep their time
  // order, as speedscope's own import of a .cpuprofile keeps them.
  const std::vector<EventedSpan> spans = EventedSpans(t);
  const auto evented = [&](int type) { return type >= 0 && spans[type].ok; };
  if (value_.empty() && !evented(track.type)) {
    for (size_t i = 0; i < spans.size(); ++i) {
      if (spans[i].ok) {
        track.type = static_cast<int>(i);
        track.by_duration = true;
        break;
      }
    }
  }
  track.evented = evented(track.type);
  if (track.evented) {
    track.first_time = spans[track.type].first_time;
    track.end = spans[track.type].end;
  }
  if (track.type >= 0) track.unit = SpeedscopeUnitFor(header_.types[track.type].unit);
  records_->ForEach(t, [&](const int64_t* record) {
    const int64_t stack = record[kStack];
    if (record[kTime] != kNoTime) ++track.timed;
    if (stack < 0 || stack_frames_[stack].empty()) ++track.empty;
    if (record[kValues + (track.type < 0 ? 0 : track.type)] < 0) ++track.negative;
    if (__builtin_add_overflow(track.sum, WeightOf(track, record), &track.sum)) {
      track.sum = INT64_MAX;
    }
  });
}

std::vector<SpeedscopeWriter::EventedSpan> SpeedscopeWriter::EventedSpans(uint32_t t) const {
  std::vector<EventedSpan> spans(header_.types.size());
  std::vector<int64_t> nanos_per_unit(spans.size(), 0);  // of each type that is a time
  for (size_t i = 0; i < spans.size(); ++i) {
    const KnownUnit known = LookUpUnit(header_.types[i].unit);
    if (known.dimension != nullptr && std::string(known.dimension) == "time") {
      nanos_per_unit[i] = known.factor;
      spans[i].ok = true;
    }
  }
  uint64_t n = 0;
  records_->ForEach(t, [&](const int64_t* record) {
    const int64_t time = record[kTime], duration = record[kDuration];
    for (size_t i = 0; i < spans.size(); ++i) {
      EventedSpan& span = spans[i];
      int64_t nanos = 0, end = 0;
      if (!span.ok) continue;
      if (time == kNoTime || duration < 0 || (n > 0 && time < span.end) ||
          __builtin_mul_overflow(record[kValues + i], nanos_per_unit[i], &nanos) ||
          std::abs(nanos - duration) > nanos_per_unit[i] / 2 ||
          __builtin_add_overflow(time, duration, &end)) {
        span.ok = false;
      } else {
        if (n == 0) span.first_time = time;
        span.end = end;
      }
    }
    ++n;
  });
  return spans;
}

const std::string& SpeedscopeWriter::StackText(int64_t index) {
  if (stack_texts_.size() < stack_frames_.size()) stack_texts_.resize(stack_frames_.size());
  std::string& text = stack_texts_[index];
  const std::vector<uint32_t>& frames = stack_frames_[index];
  if (text.empty() && !frames.empty()) {
    for (size_t i = 0; i < frames.size(); ++i) {
      if (i != 0) text += ',';
      text += std::to_string(frames[i]);
    }
  }
  return text;
}

void SpeedscopeWriter::WriteSampled(uint32_t t) {
  const Track& track = tracks_[t];
  buffer_ += "{\"type\":\"sampled\",\"name\":";
  AppendJsonString(&buffer_, track.name);
  buffer_ += ",\"unit\":\"";
  buffer_ += track.unit.name;
  buffer_ += "\",\"startValue\":0,\"endValue\":" + std::to_string(track.sum) + ",\"samples\":[";
  bool first = true;
  records_->ForEach(t, [&](const int64_t* record) {
    buffer_ += first ? "\n[" : ",\n[";
    first = false;
    if (record[kStack] >= 0) buffer_ += StackText(record[kStack]);
    buffer_ += ']';
    output_.FlushWhenFull();
  });
  buffer_ += "],\n\"weights\":[";
  first = true;
  records_->ForEach(t, [&](const int64_t* record) {
    if (!first) buffer_ += ',';
    first = false;
    buffer_ += std::to_string(WeightOf(track, record));
    output_.FlushWhenFull();
  });
  buffer_ += "]}";
}

void SpeedscopeWriter::WriteEvented(uint32_t t) {
  const Track& track = tracks_[t];
  // Times as they are when JavaScript reads them exactly, else from the thread's first sample.
  const int64_t base = track.end > kMaxExact ? track.first_time : 0;
  buffer_ += "{\"type\":\"evented\",\"name\":";
  AppendJsonString(&buffer_, track.name);
  buffer_ += ",\"unit\":\"nanoseconds\",\"startValue\":" + std::to_string(track.first_time - base) +
             ",\"endValue\":" + std::to_string(track.end - base) + ",\"events\":[";
  bool first = true;
  const auto event = [&](char type, uint32_t frame, int64_t at) {
    buffer_ += first ? "\n{\"type\":\"" : ",\n{\"type\":\"";
    first = false;
    buffer_ += type;
    buffer_ +=
        "\",\"frame\":" + std::to_string(frame) + ",\"at\":" + std::to_string(at - base) + "}";
  };
  std::vector<uint32_t> open;  // root first
  int64_t end = 0;             // where the frames open now close at the latest
  const auto close_to = [&](size_t depth, int64_t at) {
    while (open.size() > depth) {
      event('C', open.back(), at);
      open.pop_back();
    }
  };
  static const std::vector<uint32_t> kNone;
  records_->ForEach(t, [&](const int64_t* record) {
    const int64_t time = record[kTime];
    const std::vector<uint32_t>& frames =
        record[kStack] < 0 ? kNone : stack_frames_[record[kStack]];
    if (time > end || frames.empty()) close_to(0, end);  // a gap: nothing runs
    size_t common = 0;
    while (common < open.size() && common < frames.size() && open[common] == frames[common]) {
      ++common;
    }
    // The same stack again: its innermost frame closed and opened again, so that the samples
    // stay apart.
    if (common == frames.size() && common == open.size() && common > 0) --common;
    close_to(common, time);
    for (size_t i = open.size(); i < frames.size(); ++i) {
      event('O', frames[i], time);
      open.push_back(frames[i]);
    }
    end = time + record[kDuration];
    output_.FlushWhenFull();
  });
  close_to(0, end);
  buffer_ += "]}";
}

void SpeedscopeWriter::OnEnd() {
  records_->Finish();
  uint64_t other_type = 0, negative = 0, by_duration = 0;
  std::string duration_types;  // the types that keep threads' time order, for the warning
  for (uint32_t t = 0; t < tracks_.size(); ++t) {
    Decide(t);
    const Track& track = tracks_[t];
    if (track.by_duration) {
      ++by_duration;
      const std::string& type = header_.types[track.type].type;
      if (duration_types.find("'" + type + "'") == std::string::npos) {
        duration_types += (duration_types.empty() ? "'" : ", '") + type + "'";
      }
    } else if (track.type != weight_index_) {
      ++other_type;
    }
    negative += track.negative;
  }
  buffer_ = "{\"$schema\":\"";
  buffer_ += kSpeedscopeSchema;
  buffer_ += "\",\"exporter\":\"proftools\"";
  for (const MetaEntry& meta : header_.meta) {
    if (meta.key != "speedscope.name") continue;
    buffer_ += ",\"name\":";
    AppendJsonString(&buffer_, meta.value);
  }
  // The profile shown first: the first weighed by the profile's default type.
  size_t active = 0;
  while (active < tracks_.size() && tracks_[active].type != weight_index_) ++active;
  buffer_ += ",\"activeProfileIndex\":" + std::to_string(active < tracks_.size() ? active : 0) +
             ",\n\"shared\":{\"frames\":[";
  for (size_t i = 0; i < frames_.size(); ++i) {
    const Frame& frame = frames_[i];
    buffer_ += i == 0 ? "\n{\"name\":" : ",\n{\"name\":";
    AppendJsonString(&buffer_, frame.name);
    if (!frame.file.empty()) {
      buffer_ += ",\"file\":";
      AppendJsonString(&buffer_, frame.file);
    }
    if (frame.line > 0) buffer_ += ",\"line\":" + std::to_string(frame.line);
    if (frame.column > 0) buffer_ += ",\"col\":" + std::to_string(frame.column);
    buffer_ += '}';
    output_.FlushWhenFull();
  }
  buffer_ += "\n]},\n\"profiles\":[";
  uint64_t timed_sampled = 0, sampled_threads = 0, gaps = 0, relative = 0;
  for (uint32_t t = 0; t < tracks_.size(); ++t) {
    const Track& track = tracks_[t];
    buffer_ += t == 0 ? "\n" : ",\n";
    if (track.evented) {
      WriteEvented(t);
      gaps += track.empty;
      if (track.end > kMaxExact) ++relative;
    } else {
      WriteSampled(t);
      if (track.timed > 0) {
        timed_sampled += track.timed;
        ++sampled_threads;
      }
    }
  }
  buffer_ += "\n]}\n";
  output_.Flush();

  // What the file could not keep as the profile had it.
  const std::string weight =
      weight_index_ >= 0 ? header_.types[weight_index_].type : std::string("samples");
  if (header_.types.size() > 1) {
    const bool all_by_duration = by_duration == tracks_.size();
    warn_(std::to_string(header_.types.size()) + " value types: speedscope's weights are " +
          (all_by_duration ? duration_types : weight) + " (--value TYPE for another)" +
          (other_type > 0 ? ", but " + Counted(other_type, "thread", "threads") +
                                " whose samples are all 0 in it are weighed by the first type "
                                "they have values of"
                          : std::string()) +
          "; the others are not written");
  }
  if (by_duration > 0) {
    warn_(Counted(by_duration, "thread", "threads") + " written " +
          (by_duration == 1 ? "as an evented profile" : "as evented profiles") +
          ", in time order, weighed by " + duration_types +
          " (the samples' durations) instead of " + weight +
          ", as speedscope imports such a profile itself (--value " + weight + " for " +
          (by_duration == 1 ? "a sampled profile" : "sampled profiles") + " of " + weight +
          (by_duration == 1 ? ", which has no times)" : ", which have no times)"));
  }
  if (timed_sampled > 0) {
    warn_(Counted(timed_sampled, "sample", "samples") + " with a time in " +
          Counted(sampled_threads, "thread", "threads") +
          " written as sampled profiles, which have no times (evented needs every sample of a "
          "thread timed, with a duration, none overlapping, and weighed by a time type whose "
          "value is its duration)");
  }
  if (gaps > 0) {
    warn_(Counted(gaps, "sample", "samples") +
          " without frames in evented profiles: a time with no frame open, which speedscope "
          "weighs as no function's");
  }
  if (relative > 0) {
    warn_(Counted(relative, "evented profile's", "evented profiles'") +
          " times beyond 2^53 ns (what JavaScript reads exactly): written from the thread's first "
          "sample");
  }
  if (labelled_ > 0) {
    warn_(Counted(labelled_, "sample", "samples") +
          " with labels other than pid, tid, thread and comm: not written (speedscope has no "
          "labels)");
  }
  if (negative > 0) {
    warn_(Counted(negative, "sample", "samples") + " with a negative " + weight +
          " weigh 0 (speedscope's weights are not negative)");
  }
}

void WriteSpeedscope(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  SpeedscopeWriter writer(out, context.Has("value") ? context.Get("value") : std::string(),
                          WriterWarnings(profile.name(), context.warnings));
  profile.Read(&writer);
}

}  // namespace

const WriterSpec kSpeedscopeWriter = {
    "speedscope",
    "prof2speedscope",
    "speedscope's file format (JSON)",
    /*binary=*/false,
    /*gzip=*/false,
    ".speedscope.json",
    {
        {"value", "TYPE",
         "the value type that weighs the samples (default: the profile's default type); the "
         "others are not written"},
    },
    WriteSpeedscope,
};

}  // namespace proftools
