#include "common/chrome/trace_writer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/counted.h"
#include "common/base/json_string.h"
#include "common/base/quantity.h"
#include "common/io/spool.h"
#include "common/model/producer_kit.h"
#include "common/model/writer_kit.h"

namespace proftools {
namespace {

constexpr int64_t kDefaultIntervalNanos = 1000000;  // 1 ms, when nothing says the interval

struct ChromeTraceOptions {
  std::string value;           // the type that weighs `samples` ("" : the default type)
  int64_t interval_nanos = 0;  // a sample's duration when it has none (0: SamplingInterval)
};

// Nanoseconds as microseconds, exactly: "1234.5" for 1234500.
void AppendMicros(std::string* out, int64_t nanos) {
  // The magnitude through unsigned arithmetic: that of INT64_MIN does not fit an int64.
  const uint64_t magnitude =
      nanos < 0 ? uint64_t{0} - static_cast<uint64_t>(nanos) : static_cast<uint64_t>(nanos);
  if (nanos < 0) out->push_back('-');
  *out += std::to_string(magnitude / 1000);
  const uint64_t fraction = magnitude % 1000;
  if (fraction == 0) return;
  const char digits[3] = {static_cast<char>('0' + fraction / 100),
                          static_cast<char>('0' + fraction / 10 % 10),
                          static_cast<char>('0' + fraction % 10)};
  size_t length = 3;
  while (digits[length - 1] == '0') --length;
  out->push_back('.');
  out->append(digits, length);
}

// The sink that writes the trace (see trace_writer.h).
class ChromeTraceWriter : public ProfileSink {
 public:
  // `warn`: what the trace cannot keep, named after the profile.
  ChromeTraceWriter(ByteSink* out, ChromeTraceOptions options, WriterWarnings warn)
      : output_(out), options_(std::move(options)), warn_(std::move(warn)) {}

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
  struct Node {       // a frame of stackFrames: a path of frames from the root
    uint64_t parent;  // 0: a root
    std::string name, category;
  };
  // A sample waiting for the next one of its track, which may cut its guessed duration.
  struct Pending {
    Sample sample;
    int64_t interval = 0;  // its duration when it has none
  };
  // A sample written on a track that a later one may lie inside (a span around its children,
  // as the Trace Event Format's readers give them): its interval and its frames, outermost
  // first.
  struct Enclosing {
    int64_t start, end;
    std::vector<uint64_t> path;
  };
  struct Track {
    int64_t pid = 0, tid = 0;
    int64_t end = 0;        // where the last sample written on it ended
    bool has_last = false;  // a sample was written on it
    int64_t last_time = 0;  // the time that sample had in the profile
    int64_t clock = 0;      // the weights written to `samples` so far
    std::optional<Pending> pending;
    // The samples around the next one's time, outermost first: the first open_depth of `open`
    // (the rest keep their room for the next: no allocation a sample).
    std::vector<Enclosing> open;
    size_t open_depth = 0;
  };

  Track& TrackFor(const Sample& sample);
  int64_t ProcessId(uint64_t source_id, const std::optional<int64_t>& pid);
  int64_t ThreadId(int64_t pid, const std::optional<int64_t>& tid, const std::string* thread);
  void WriteMetadata(const char* what, int64_t pid, int64_t tid, const std::string& name);
  uint64_t NodeFor(uint64_t parent, const std::string& name, const std::string& category);
  // The sample's duration when it has none.
  int64_t IntervalOf(const Sample& sample) const;
  void Write(Track& track, const Sample& sample, int64_t duration);
  void AppendArgs(const Sample& sample, const std::optional<int64_t>& moved_from);
  void Event(std::string_view text);

  BufferedOutput output_;
  std::string& buffer_ = output_.buffer();  // traceEvents, flushed to the output in blocks
  ChromeTraceOptions options_;
  WriterWarnings warn_;
  ProfileHeader header_;
  int weight_index_ = -1;      // the type of `samples`' weights; -1: each sample weighs 1
  int64_t weight_factor_ = 0;  // its nanoseconds per unit when it is a time, else 0
  int64_t period_nanos_ = 0;   // the header's period when it is a time, else 0

  std::unordered_map<uint64_t, std::string> mapping_files_;
  std::unordered_map<uint64_t, FunctionInfo> functions_;
  std::unordered_map<uint64_t, Location> locations_;
  std::unordered_map<uint64_t, uint64_t> stack_leaf_;  // stack id -> its innermost node
  std::vector<Node> nodes_;                            // node id - 1
  std::unordered_map<std::string, uint64_t> node_index_;
  std::vector<uint64_t> path_;  // scratch: a stack's nodes, outermost first

  // Tracks by (source, pid, tid, thread), in order of first appearance.
  std::map<std::string, size_t> track_index_;
  std::vector<std::unique_ptr<Track>> tracks_;
  std::map<std::pair<uint64_t, std::optional<int64_t>>, int64_t> process_ids_;
  std::set<int64_t> taken_pids_;
  int64_t next_pid_ = 1;
  std::map<std::pair<int64_t, std::string>, int64_t> thread_ids_;  // (pid, tid or name)
  std::set<std::pair<int64_t, int64_t>> taken_tids_;

  bool first_event_ = true;
  SpoolFile spool_file_;
  SpoolWriter spool_{spool_file_};
  std::string sample_line_;

  // What could not be kept, counted for one warning each.
  uint64_t samples_ = 0, untimed_ = 0, guessed_ = 0, cut_ = 0, moved_ = 0, out_of_order_ = 0;
  uint64_t negative_weights_ = 0, labelled_ = 0;
};

void ChromeTraceWriter::OnHeader(const ProfileHeader& header) {
  header_ = header;
  weight_index_ = ValueTypeIndex(header, options_.value);
  int64_t factor = 0;
  if (weight_index_ >= 0 &&
      UnitKindOf(header.types[weight_index_].unit, &factor) == UnitKind::kTime) {
    weight_factor_ = factor;
  }
  if (header.period.value > 0 && UnitKindOf(header.period.type.unit, &factor) == UnitKind::kTime) {
    period_nanos_ = ScaleRounded(header.period.value, factor, 1);
  }
  buffer_ = "{\"traceEvents\":[";
}

void ChromeTraceWriter::Event(std::string_view text) {
  buffer_ += first_event_ ? "\n" : ",\n";
  first_event_ = false;
  buffer_ += text;
}

uint64_t ChromeTraceWriter::NodeFor(uint64_t parent, const std::string& name,
                                    const std::string& category) {
  std::string key = std::to_string(parent);
  key += '\0';
  key += name;
  key += '\0';
  key += category;
  const auto inserted = node_index_.emplace(std::move(key), nodes_.size() + 1);
  if (inserted.second) nodes_.push_back(Node{parent, name, category});
  return inserted.first->second;
}

void ChromeTraceWriter::OnStack(const Stack& stack) {
  // Outermost first: the stack's locations from the root, each location's inlined lines from
  // the outermost.
  uint64_t node = 0;
  for (auto location_id = stack.location_ids.rbegin(); location_id != stack.location_ids.rend();
       ++location_id) {
    const auto found = locations_.find(*location_id);
    if (found == locations_.end()) continue;  // the checker refuses this before it comes here
    const Location& location = found->second;
    const auto mapping = mapping_files_.find(location.mapping_id);
    const std::string mapping_file =
        mapping == mapping_files_.end() ? std::string() : Basename(mapping->second);
    if (location.lines.empty()) {
      // Named as the reports name it (report/frames): its mapping's file, else its address.
      char address[24];
      std::snprintf(address, sizeof address, "0x%llx",
                    static_cast<unsigned long long>(location.address));
      node = NodeFor(node,
                     !mapping_file.empty()   ? "[" + mapping_file + "]"
                     : location.address != 0 ? std::string(address)
                                             : std::string("[unknown]"),
                     mapping_file);
      continue;
    }
    for (auto line = location.lines.rbegin(); line != location.lines.rend(); ++line) {
      const auto function = functions_.find(line->function_id);
      if (function == functions_.end()) continue;
      const FunctionInfo& info = function->second;
      node = NodeFor(node, info.name, info.file.empty() ? mapping_file : Basename(info.file));
    }
  }
  stack_leaf_[stack.id] = node;
}

int64_t ChromeTraceWriter::ProcessId(uint64_t source_id, const std::optional<int64_t>& pid) {
  const auto inserted = process_ids_.emplace(std::make_pair(source_id, pid), 0);
  if (!inserted.second) return inserted.first->second;
  // The profile's pid when no other source took it first, else the smallest free number.
  int64_t id = pid.value_or(0);
  if (!pid || taken_pids_.count(id) != 0) {
    while (taken_pids_.count(next_pid_) != 0) ++next_pid_;
    id = next_pid_;
  }
  taken_pids_.insert(id);
  inserted.first->second = id;
  return id;
}

int64_t ChromeTraceWriter::ThreadId(int64_t pid, const std::optional<int64_t>& tid,
                                    const std::string* thread) {
  std::string key = tid ? "#" + std::to_string(*tid) : (thread ? "=" + *thread : "");
  const auto inserted = thread_ids_.emplace(std::make_pair(pid, key), 0);
  if (!inserted.second) return inserted.first->second;
  // The profile's tid when free, else (a thread known by name only, or none) the pid for the
  // first such thread, then the next free number above it.
  int64_t id = tid ? *tid : pid;
  while (taken_tids_.count({pid, id}) != 0) ++id;
  taken_tids_.insert({pid, id});
  inserted.first->second = id;
  return id;
}

void ChromeTraceWriter::WriteMetadata(const char* what, int64_t pid, int64_t tid,
                                      const std::string& name) {
  // Every event has a cat: Chrome DevTools' Performance panel reads it (its Bottom-up and Call
  // tree tables stay empty without); metadata as Chrome writes it.
  std::string event = "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"";
  event += what;
  event += "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"args\":{\"name\":";
  AppendJsonString(&event, name);
  event += "}}";
  Event(event);
}

ChromeTraceWriter::Track& ChromeTraceWriter::TrackFor(const Sample& sample) {
  const ThreadLabels labels = ThreadLabelsOf(sample);
  const std::optional<int64_t>& pid = labels.pid;
  const std::optional<int64_t>& tid = labels.tid;
  const std::string* thread = labels.thread;
  const std::string* comm = labels.comm;
  const auto inserted = track_index_.emplace(ThreadKey(sample.source_id, labels), tracks_.size());
  if (!inserted.second) return *tracks_[inserted.first->second];

  auto track = std::make_unique<Track>();
  // Samples without a time start at their source's time, else the profile's, else 0.
  const Source* source = header_.FindSource(sample.source_id);
  track->end = source != nullptr && source->time_nanos ? *source->time_nanos
                                                       : header_.time_nanos.value_or(0);
  const bool new_process = process_ids_.count({sample.source_id, pid}) == 0;
  track->pid = ProcessId(sample.source_id, pid);
  track->tid = ThreadId(track->pid, tid, thread);
  if (new_process) {
    // A process is named by its command (perf's comm), else by its source.
    std::string name;
    if (comm != nullptr) {
      name = *comm;
    } else if (source != nullptr) {
      name = source->uri.empty() ? source->type : source->uri;
    }
    if (name.empty()) name = "source " + std::to_string(sample.source_id);
    if (pid && *pid != track->pid) name += " (pid " + std::to_string(*pid) + ")";
    WriteMetadata("process_name", track->pid, track->tid, name);
  }
  // (A thread known only by its tid is not named: viewers show its tid, and a name made up
  // here would come back as a thread label.)
  if (thread != nullptr || comm != nullptr) {
    std::string name = thread ? *thread : *comm;
    if (tid && *tid != track->tid) name += " (tid " + std::to_string(*tid) + ")";
    WriteMetadata("thread_name", track->pid, track->tid, name);
  }
  tracks_.push_back(std::move(track));
  return *tracks_.back();
}

int64_t ChromeTraceWriter::IntervalOf(const Sample& sample) const {
  if (options_.interval_nanos > 0) return options_.interval_nanos;
  if (period_nanos_ > 0) return period_nanos_;
  if (weight_factor_ > 0 && weight_index_ < static_cast<int>(sample.values.size())) {
    const int64_t nanos = ScaleRounded(sample.values[weight_index_], weight_factor_, 1);
    if (nanos > 0) return nanos;
  }
  return kDefaultIntervalNanos;
}

void ChromeTraceWriter::AppendArgs(const Sample& sample, const std::optional<int64_t>& moved_from) {
  buffer_ += ",\"args\":{";
  bool first = true;
  if (moved_from) {
    buffer_ += "\"time\":";
    AppendMicros(&buffer_, *moved_from);
    first = false;
  }
  if (!header_.types.empty()) {
    buffer_ += first ? "\"values\":{" : ",\"values\":{";
    first = false;
    for (size_t i = 0; i < header_.types.size() && i < sample.values.size(); ++i) {
      if (i != 0) buffer_ += ',';
      AppendJsonString(&buffer_, header_.types[i].type + "/" + header_.types[i].unit);
      buffer_ += ':' + std::to_string(sample.values[i]);
    }
    buffer_ += '}';
  }
  // Labels but those the track shows; a key given more than once becomes an array.
  bool any = false;
  size_t other_labels = 0;  // not pid, tid, thread or comm, which name the track
  for (size_t i = 0; i < sample.labels.size(); ++i) {
    const Label& label = sample.labels[i];
    if (label.key == kPidLabel || label.key == kTidLabel || label.key == kThreadLabel) continue;
    if (label.key != kCommLabel) ++other_labels;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = sample.labels[j].key == label.key;
    if (seen) continue;
    buffer_ += any ? "," : first ? "\"labels\":{" : ",\"labels\":{";
    any = true;
    first = false;
    AppendJsonString(&buffer_, label.key);
    buffer_ += ':';
    size_t count = 0;
    for (size_t j = i; j < sample.labels.size(); ++j) count += sample.labels[j].key == label.key;
    if (count > 1) buffer_ += '[';
    bool first_value = true;
    for (size_t j = i; j < sample.labels.size(); ++j) {
      const Label& same = sample.labels[j];
      if (same.key != label.key) continue;
      if (!first_value) buffer_ += ',';
      first_value = false;
      if (!same.is_num) {
        AppendJsonString(&buffer_, same.str);
      } else if (same.unit.empty()) {
        buffer_ += std::to_string(same.num);
      } else {
        AppendJsonString(&buffer_, std::to_string(same.num) + " " + same.unit);
      }
    }
    if (count > 1) buffer_ += ']';
  }
  if (any) buffer_ += '}';
  if (other_labels > 0) ++labelled_;
  buffer_ += '}';
}

void ChromeTraceWriter::Write(Track& track, const Sample& sample, int64_t duration) {
  ++samples_;
  const auto leaf = stack_leaf_.find(sample.stack_id);
  const uint64_t leaf_node = leaf == stack_leaf_.end() ? 0 : leaf->second;
  path_.clear();  // leaf first
  for (uint64_t node = leaf_node; node != 0; node = nodes_[node - 1].parent) path_.push_back(node);
  const int64_t time = sample.time_nanos.value_or(0);
  const int64_t end = time > INT64_MAX - duration ? INT64_MAX : time + duration;

  // A sample inside one written before it on its track whose frames are the outer ones of its
  // own (a span and its children, as duration events give them) is written inside it: only its
  // own frames, at its own time. The trace then nests as the original did, and keeps its totals.
  while (track.open_depth > 0 && track.open[track.open_depth - 1].end <= time &&
         !(duration == 0 && track.open[track.open_depth - 1].end == time)) {
    --track.open_depth;
  }
  size_t outer = 0;  // frames the enclosing sample has drawn already
  if (sample.time_nanos && sample.duration_nanos && track.open_depth > 0) {
    const Enclosing& around = track.open[track.open_depth - 1];
    const std::vector<uint64_t>& shared = around.path;
    bool inside = around.start <= time && end <= around.end && shared.size() < path_.size();
    for (size_t i = 0; inside && i < shared.size(); ++i) {
      inside = path_[path_.size() - 1 - i] == shared[i];
    }
    if (inside) outer = shared.size();
  }

  // Its place on the track: its own time, unless that falls inside the previous sample.
  int64_t ts;
  std::optional<int64_t> moved_from;
  if (!sample.time_nanos) {
    ts = track.end;
  } else {
    ts = *sample.time_nanos;
    if (outer > 0) {
      // in its enclosing sample: neither out of order nor moved
    } else if (track.has_last && ts < track.last_time) {
      ++out_of_order_;
    } else if (track.has_last && ts < track.end) {
      ++moved_;
      moved_from = ts;
      ts = track.end;
    }
    track.has_last = true;
    track.last_time = *sample.time_nanos;
  }
  if (outer == 0) track.open_depth = 0;
  if (sample.time_nanos && sample.duration_nanos && !moved_from) {
    if (track.open_depth == track.open.size()) track.open.emplace_back();
    Enclosing& written = track.open[track.open_depth++];
    written.start = ts;
    written.end = end;
    written.path.assign(path_.rbegin(), path_.rend());
  }
  track.end = std::max(track.end, ts > INT64_MAX - duration ? INT64_MAX : ts + duration);

  std::string common = ",\"pid\":" + std::to_string(track.pid) +
                       ",\"tid\":" + std::to_string(track.tid) + ",\"ts\":";
  AppendMicros(&common, ts);
  common += ",\"dur\":";
  AppendMicros(&common, duration);
  if (path_.empty()) path_.push_back(0);  // an empty stack: one event, "(no frames)"
  for (size_t i = path_.size() - outer; i-- > 0;) {
    buffer_ += first_event_ ? "\n" : ",\n";
    first_event_ = false;
    buffer_ += "{\"ph\":\"X\",\"cat\":\"proftools\",\"name\":";
    AppendJsonString(&buffer_,
                     path_[i] == 0 ? std::string("(no frames)") : nodes_[path_[i] - 1].name);
    buffer_ += common;
    if (i == 0) {
      if (leaf_node != 0) buffer_ += ",\"sf\":" + std::to_string(leaf_node);
      AppendArgs(sample, moved_from);
    }
    buffer_ += '}';
  }
  output_.FlushWhenFull();

  // The sampled form: weights laid end to end on the track's own clock.
  int64_t weight = 1;
  if (weight_index_ >= 0) {
    weight =
        weight_index_ < static_cast<int>(sample.values.size()) ? sample.values[weight_index_] : 0;
    if (weight < 0) {
      ++negative_weights_;
      weight = 0;
    }
  }
  sample_line_ = samples_ == 1 ? "\n" : ",\n";
  sample_line_ += "{\"name\":";
  AppendJsonString(&sample_line_,
                   weight_index_ >= 0 ? header_.types[weight_index_].type : std::string("samples"));
  sample_line_ += ",\"pid\":" + std::to_string(track.pid) +
                  ",\"tid\":" + std::to_string(track.tid) + ",\"ts\":";
  if (weight_factor_ > 0) {
    AppendMicros(&sample_line_, ScaleRounded(track.clock, weight_factor_, 1));
  } else {
    sample_line_ += std::to_string(track.clock);
  }
  if (leaf_node != 0) sample_line_ += ",\"sf\":" + std::to_string(leaf_node);
  sample_line_ += ",\"weight\":" + std::to_string(weight) + "}";
  spool_.Write(sample_line_);
  track.clock = track.clock > INT64_MAX - weight ? INT64_MAX : track.clock + weight;
}

void ChromeTraceWriter::OnSample(const Sample& sample) {
  Track& track = TrackFor(sample);
  // The sample before it on its track, whose guessed duration ends where this one starts.
  if (track.pending) {
    Pending pending = std::move(*track.pending);
    track.pending.reset();
    int64_t duration = pending.interval;
    if (sample.time_nanos && *sample.time_nanos >= *pending.sample.time_nanos &&
        *sample.time_nanos - *pending.sample.time_nanos < duration) {
      duration = *sample.time_nanos - *pending.sample.time_nanos;
      ++cut_;
    }
    Write(track, pending.sample, duration);
  }
  if (!sample.time_nanos) {
    ++untimed_;
    Write(track, sample, sample.duration_nanos.value_or(IntervalOf(sample)));
  } else if (sample.duration_nanos) {
    Write(track, sample, *sample.duration_nanos);
  } else {
    ++guessed_;
    track.pending = Pending{sample, IntervalOf(sample)};
  }
}

void ChromeTraceWriter::OnEnd() {
  for (auto& track : tracks_) {
    if (track->pending) {
      Pending pending = std::move(*track->pending);
      track->pending.reset();
      Write(*track, pending.sample, pending.interval);
    }
  }
  buffer_ += "\n],\n\"samples\":[";
  // Each track's end: speedscope weighs the sample before it by the time to it.
  for (size_t i = 0; i < tracks_.size(); ++i) {
    const Track& track = *tracks_[i];
    sample_line_ = samples_ == 0 && i == 0 ? "\n" : ",\n";
    sample_line_ += "{\"name\":\"(end)\",\"pid\":" + std::to_string(track.pid) +
                    ",\"tid\":" + std::to_string(track.tid) + ",\"ts\":";
    if (weight_factor_ > 0) {
      AppendMicros(&sample_line_, ScaleRounded(track.clock, weight_factor_, 1));
    } else {
      sample_line_ += std::to_string(track.clock);
    }
    sample_line_ += ",\"weight\":0}";
    spool_.Write(sample_line_);
  }
  spool_.Flush();
  output_.FlushAndCopy(*spool_file_.Reopen(warn_.file()));
  buffer_ = "\n],\n\"stackFrames\":{";
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node& node = nodes_[i];
    buffer_ += i == 0 ? "\n\"" : ",\n\"";
    buffer_ += std::to_string(i + 1) + "\":{\"category\":";
    AppendJsonString(&buffer_, node.category);
    buffer_ += ",\"name\":";
    AppendJsonString(&buffer_, node.name);
    if (node.parent != 0) buffer_ += ",\"parent\":" + std::to_string(node.parent);
    buffer_ += '}';
    output_.FlushWhenFull();
  }
  buffer_ += "\n},\n\"otherData\":{\"producer\":\"proftools\",\"weight\":";
  AppendJsonString(&buffer_, weight_index_ >= 0 ? header_.types[weight_index_].type + "/" +
                                                      header_.types[weight_index_].unit
                                                : std::string("samples/count"));
  for (const MetaEntry& meta : header_.meta) {
    buffer_ += ',';
    AppendJsonString(&buffer_, "meta " + meta.key);
    buffer_ += ':';
    AppendJsonString(&buffer_, meta.value);
  }
  buffer_ += "}}\n";
  output_.Flush();

  // What the trace could not keep as the profile had it.
  if (header_.types.size() > 1) {
    warn_(std::to_string(header_.types.size()) +
          " value types: the samples array (what speedscope shows) is weighted by " +
          (weight_index_ >= 0 ? header_.types[weight_index_].type : std::string("samples")) +
          " (--value TYPE for another); every value is in the args of each sample's innermost "
          "event");
  }
  if (labelled_ > 0) {
    warn_(Counted(labelled_, "sample", "samples") +
          " with labels other than pid, tid, thread and comm: they are in the args of the sample's "
          "innermost event, not tracks");
  }
  if (untimed_ > 0) {
    warn_(Counted(untimed_, "sample", "samples") +
          " without a time: laid end to end on their track from their source's time");
  }
  if (guessed_ > 0) {
    const std::string interval = options_.interval_nanos > 0 ? "--interval"
                                 : period_nanos_ > 0         ? "the profile's period"
                                 : weight_factor_ > 0
                                     ? "its " + header_.types[weight_index_].type + " value"
                                     : "1ms (--interval to choose)";
    warn_(Counted(guessed_, "sample", "samples") + " without a duration: each lasts " + interval +
          (cut_ > 0
               ? ", cut at the next sample of its thread (" + Counted(cut_, "time", "times") + ")"
               : std::string()));
  }
  if (moved_ > 0) {
    warn_(Counted(moved_, "sample", "samples") +
          " started before the previous sample of their thread ended: moved to its end (args.time "
          "has their time)");
  }
  if (out_of_order_ > 0) {
    warn_(Counted(out_of_order_, "sample", "samples") +
          " earlier than the sample before them on their thread: viewers may nest them in it");
  }
  if (negative_weights_ > 0) {
    warn_(Counted(negative_weights_, "sample", "samples") + " with a negative " +
          header_.types[weight_index_].type + " weigh 0 in the samples array");
  }
}

// The importer speedscope picks by the file's name before it looks at the content, when that
// is not the Trace Event Format's (its importers as of 1.25); nullptr when the name is neutral.
const char* SpeedscopeImporterByName(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto ends = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
  };
  const auto stamped = [&](const char* prefix) {  // PREFIX-YYYYMMDDTHHMMSS anywhere
    for (size_t at = name.find(prefix); at != std::string::npos; at = name.find(prefix, at + 1)) {
      const size_t d = at + std::strlen(prefix);
      if (name.size() < d + 15) break;
      bool digits = true;
      for (size_t i = 0; i < 15; ++i) {
        const char c = name[d + i];
        digits = digits && (i == 8 ? c == 'T' : c >= '0' && c <= '9');
      }
      if (digits) return true;
    }
    return false;
  };
  if (ends(".speedscope.json")) return "its own format's";
  if (stamped("Trace-")) return "Chrome's timeline object's";
  if (ends(".chrome.json") || stamped("Profile-")) return "Chrome's timeline's";
  if (ends(".stackprof.json")) return "stackprof's";
  if (ends(".v8log.json")) return "node --prof-process's";
  if (ends(".heapprofile")) return "V8 heap profiles'";
  if (ends("-recording.json")) return "Safari's";
  if (name.compare(0, 10, "callgrind.") == 0) return "callgrind's";
  return nullptr;
}

void WriteChromeTrace(ProfileSource& profile, ByteSink* out, const WriteContext& context) {
  if (const char* importer = SpeedscopeImporterByName(context.output_path)) {
    context.Warn(profile.name(),
                 "speedscope picks its importer by the file's name before its content: it reads " +
                     context.output_path + " with " + importer +
                     " importer and fails; name it *.json (trace.json) for speedscope");
  }
  ChromeTraceOptions options;
  if (context.Has("value")) options.value = context.Get("value");
  if (context.Has("interval")) {
    std::string error;
    if (!ParseDuration(context.Get("interval"), &options.interval_nanos, &error) ||
        options.interval_nanos <= 0) {
      throw UsageError("--interval " + context.Get("interval") +
                       ": expected a positive duration with a unit, such as 1ms or 250us" +
                       (error.empty() ? "" : " (" + error + ")"));
    }
  }
  ChromeTraceWriter writer(out, options, WriterWarnings(profile.name(), context.warnings));
  profile.Read(&writer);
}

}  // namespace

const WriterSpec kChromeTraceWriter = {
    "chrome-trace",
    "prof2chrome",
    "Chrome's Trace Event Format (JSON)",
    /*binary=*/false,
    /*gzip=*/false,
    ".json",
    {
        {"value", "TYPE",
         "the value type that weighs the samples array, what speedscope shows (default: the "
         "profile's default type); every value is in args anyway"},
        {"interval", "DURATION",
         "how long a sample without a duration lasts (1ms, 250us; default: the profile's period "
         "when it is a time, else the sample's value when its type is a time, else 1ms), cut at "
         "the next sample of its thread"},
    },
    WriteChromeTrace,
};

}  // namespace proftools
