#include "common/perf/data/perf_data_converter.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "common/base/counted.h"
#include "common/base/diagnostics.h"
#include "common/base/strings.h"
#include "common/elf/dwarf_unwinder.h"
#include "common/elf/elf_symbolizer.h"
#include "common/elf/kernel_symbols.h"
#include "common/io/mapped_input.h"
#include "common/model/interner.h"
#include "common/model/producer_kit.h"
#include "common/model/sink_thread.h"
#include "common/model/stack_dedup.h"
#include "common/perf/data/perf_data_file.h"
#include "common/perf/data/perf_data_format.h"
#include "common/perf/data/perf_data_order.h"
#include "common/perf/data/perf_data_records.h"
#include "common/perf/data/perf_data_threads.h"
#include "common/perf/data/perf_jit_map.h"
#include "common/perf/data/perf_tracepoint_format.h"
#include "common/perf/perf_converter.h"
#include "common/perf/perf_offcpu.h"
#include "common/perf/perf_symbols.h"
#include "common/perf/perf_tracepoint.h"

namespace proftools {
namespace {

using namespace perf_data;

constexpr std::string_view kKernelText = "[kernel.kallsyms]_text";
// From this size on, a recording is converted with threads: objects and kernel symbols read
// ahead (the records that need them held meanwhile, HoldingSink), and the records delivered to
// the sink by another thread. PROFTOOLS_PERF_DATA_THREADED_BYTES gives another size, for the
// tests (golden perf-data/threads: the same profile either way, whatever the threads' timing).
constexpr uint64_t kThreadedBytes = uint64_t{4} << 20;
uint64_t ThreadedBytes() {
  static const uint64_t bytes = [] {
    const char* given = std::getenv("PROFTOOLS_PERF_DATA_THREADED_BYTES");
    return given != nullptr && *given != '\0' ? std::strtoull(given, nullptr, 10) : kThreadedBytes;
  }();
  return bytes;
}
constexpr std::string_view kKernelName = "[kernel.kallsyms]";

// What the first pass learns: samples per event, in order of first appearance, and what the
// warnings will say.
struct Census {
  std::vector<uint64_t> samples;  // per attribute
  std::vector<uint64_t> periods;  // of them with a period
  std::vector<size_t> order;      // attributes by first sample
  uint64_t total = 0;             // (a file's census stops once every event has a sample)
  uint64_t unknown_event = 0;     // samples of no recorded event
};

// The converter's sink while some symbols are still being read on other threads (the
// kernel's, an object's DWARF): mappings, locations, stacks and samples are held, in order,
// so that the converter goes on instead of waiting; the held mappings and locations are then
// completed (their flags, their functions) and everything is passed on, in the same order as
// without holding. Functions pass at once: nothing they hold refers to the held records.
class HoldingSink : public ProfileSink {
 public:
  explicit HoldingSink(ProfileSink* out) : out_(out) {}
  void OnHeader(const ProfileHeader& header) override { out_->OnHeader(header); }
  void OnFunction(const Function& function) override { out_->OnFunction(function); }
  void OnMapping(const Mapping& mapping) override {
    Take(Kind::kMapping, mapping, &mappings_, &ProfileSink::OnMapping);
  }
  void OnLocation(const Location& location) override {
    Take(Kind::kLocation, location, &locations_, &ProfileSink::OnLocation);
  }
  void OnStack(const Stack& stack) override {
    Take(Kind::kStack, stack, &stacks_, &ProfileSink::OnStack);
  }
  void OnSample(const Sample& sample) override {
    Take(Kind::kSample, sample, &samples_, &ProfileSink::OnSample);
  }
  void OnEnd() override { out_->OnEnd(); }

  bool holding() const { return holding_; }
  void Hold() { holding_ = true; }
  size_t held_samples() const { return samples_.size(); }
  // The next mapping or location held will be at this index of its kind, to complete later.
  size_t next_mapping() const { return mappings_.size(); }
  size_t next_location() const { return locations_.size(); }
  Mapping& held_mapping(size_t index) { return mappings_[index]; }
  Location& held_location(size_t index) { return locations_[index]; }
  // Passes everything held on, in order, and stops holding.
  void Release() {
    holding_ = false;
    size_t next[4] = {};
    for (Kind kind : kinds_) {
      switch (kind) {
        case Kind::kMapping:
          out_->OnMapping(mappings_[next[0]++]);
          break;
        case Kind::kLocation:
          out_->OnLocation(locations_[next[1]++]);
          break;
        case Kind::kStack:
          out_->OnStack(stacks_[next[2]++]);
          break;
        case Kind::kSample:
          out_->OnSample(samples_[next[3]++]);
          break;
      }
    }
    kinds_.clear();
    mappings_.clear();
    locations_.clear();
    stacks_.clear();
    samples_.clear();
  }

 private:
  enum class Kind : uint8_t { kMapping, kLocation, kStack, kSample };
  // Holds `record`, or passes it on when not holding.
  template <typename T>
  void Take(Kind kind, const T& record, std::vector<T>* held, void (ProfileSink::*pass)(const T&)) {
    if (!holding_) return (out_->*pass)(record);
    kinds_.push_back(kind);
    held->push_back(record);
  }
  ProfileSink* out_;
  bool holding_ = false;
  std::vector<Kind> kinds_;
  std::vector<Mapping> mappings_;
  std::vector<Location> locations_;
  std::vector<Stack> stacks_;
  std::vector<Sample> samples_;
};

class PerfDataConverter {
 public:
  PerfDataConverter(const PerfBytes& bytes, PerfDataLayout& layout, const ReadContext& context,
                    const PerfDataOptions& options, ProfileSink* sink)
      : bytes_(bytes),
        layout_(layout),
        context_(context),
        options_(options),
        hold_(sink),
        sink_(&hold_),
        interner_(&hold_),
        symbolizer_(
            ElfSymbolizerOptions{options.symfs, options.debug_dirs, true, options.inlines}) {}

  Census TakeCensus();
  // Called as the records are read: keeps only a window of the input resident
  // (MappedInput::Window), and rewinds it for another pass.
  std::function<void(uint64_t keep_from, uint64_t reading)> window;
  std::function<void()> rewind;
  void Convert(const Census& census, std::optional<int64_t> capture_time);
  // Each sample's stack is defined anew, just before the sample, under an id of its own, for
  // a StackDedupSink on the other side of a thread channel to intern: set when the conversion
  // has a thread of its own (the hashing and the table move to the thread that waited).
  bool stacks_interned_downstream = false;
  [[noreturn]] void RefuseCompressed() const;
  // The time of a SAMPLE record of event `attr` (0 without one).
  uint64_t SampleTime(const PerfRecordHeader& record, const PerfEventAttr& attr) const;

 private:
  void Deliver(const PerfRecordHeader& record);
  void OnSample(const PerfRecordHeader& record, int event);
  void UnwindUser(const PerfSample& sample, const PerfEventAttr& attr, int64_t pid, int64_t tid);
  void OnMmap(const PerfRecordHeader& record, bool mmap2);
  // The mapping an MMAP or MMAP2 record adds, and its process (kKernel for the kernel's);
  // false for a mapping of data.
  bool MapOf(const PerfRecordHeader& record, bool mmap2, PerfMap* map, int64_t* process);
  // Starts reading, on other threads, what the conversion will need: the kernel's symbols,
  // and the objects the recording's samples are in.
  void StartPrefetching();
  // The formats of the recording's tracepoint events, by event.
  void ReadTracepointFormats();
  const TracepointFormat* FormatOf(size_t event) const {
    return event < format_of_event_.size() ? format_of_event_[event] : nullptr;
  }
  uint64_t FrameLocation(int64_t pid, uint64_t ip, bool kernel);
  uint64_t LookUpLocation(int64_t pid, uint64_t ip, bool kernel);
  uint64_t MappingOf(PerfMap* map, bool kernel);
  void SetMappingFlags(const PerfMap& map, bool kernel, Mapping* mapping);
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, std::string, std::string, bool>, uint64_t>
      mapping_ids_;
  ElfSymbolizer::Object* ObjectOf(const PerfMap& map);
  // The JIT map named `file` (/tmp/perf-PID.map), read once; null when it cannot be.
  const PerfJitMap* JitMapOf(const std::string& file);
  void SymbolizeUser(PerfMap* map, uint64_t ip, Location* location);
  void SymbolizeKernel(uint64_t ip, Location* location);
  void AddFunction(const std::string& raw, const std::string& file, int64_t line,
                   Location* location);
  void LoadKernelSymbols();
  // Whether the kernel symbols to read are the recording's kernel's (--kallsyms, --symfs, or
  // the running kernel when its build id, else its release, is the recording's).
  bool KernelIsRecordings() const;
  void Warn(const std::string& message) {
    if (context_.warnings != nullptr) {
      context_.warnings->Warning(Diagnostic{Rule::kInput, bytes_.name(), 0, message});
    }
  }

  const PerfBytes& bytes_;
  PerfDataLayout& layout_;
  const ReadContext& context_;
  const PerfDataOptions& options_;
  HoldingSink hold_;
  ProfileSink* sink_;  // hold_
  Interner interner_;
  // With stacks_interned_downstream: a stack defined under the next id of its own, for the
  // sample passed on next; and each thread's last switch-out stack, for its off-CPU interval.
  uint64_t DefineRawStack(const std::vector<uint64_t>& location_ids) {
    raw_stack_.id = ++raw_stacks_;
    raw_stack_.location_ids.assign(location_ids.begin(), location_ids.end());
    sink_->OnStack(raw_stack_);
    return raw_stack_.id;
  }
  Stack raw_stack_;
  uint64_t raw_stacks_ = 0;
  std::unordered_map<int64_t, std::vector<uint64_t>> switched_out_stacks_;
  // Mappings and locations held (hold_) until the symbols they need are read: the kernel's
  // (kernel_future_), or an object's on the prefetching thread.
  struct Pending {
    bool is_mapping = false;
    size_t held = 0;  // its index among hold_'s mappings or locations
    bool kernel = false;
    PerfMap map;      // a copy: the process's mappings may change before it is completed
    uint64_t ip = 0;  // a location's address
  };
  std::vector<Pending> pending_;
  // Samples held at most: beyond, the converter waits for the symbols (memory stays bounded).
  static constexpr size_t kMaxHeldSamples = 65536;
  uint64_t samples_since_check_ = 0;
  size_t checked_ = 0;  // pending_ before this is ready
  // Whether symbolising now would wait for another thread.
  bool KernelReady();
  bool ObjectReady(const PerfMap& map);
  // Completes the pending mappings and locations (waiting for what they need) and passes
  // everything held on.
  void CompletePending();
  // Called before each sample: completes the pending records when their symbols are there, or
  // when too much is held.
  void MaybeCompletePending();
  ElfSymbolizer symbolizer_;
  DwarfUnwinder unwinder_;
  bool unwind_ = false;  // --call-graph dwarf samples are unwound here
  std::vector<uint64_t> pcs_;
  DwarfUnwinder::Sample unwind_sample_;
  std::unique_ptr<PerfEventIndex> events_;
  PerfThreads threads_;
  std::vector<size_t> type_of_event_;    // attribute -> index of its EVENT_samples type
  std::vector<int64_t> worth_of_event_;  // attribute -> a sample's worth without a period
  size_t type_count_ = 0;
  std::unordered_map<std::string, std::string> build_ids_;  // user file -> build id
  std::string kernel_build_id_;
  bool kernel_loaded_ = false;
  KernelSymbols kernel_;
  std::future<std::unique_ptr<KernelSymbols>> kernel_future_;  // loading ahead
  bool kernel_is_recordings_ = false;
  static constexpr size_t kMaxPrefetched = 64;
  // (mapping id, address) -> location: one symbolisation per distinct frame.
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
      return std::hash<uint64_t>()(p.first * 0x9e3779b97f4a7c15ull ^ p.second);
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, uint64_t, PairHash> locations_;
  std::vector<ElfFrame> frames_;
  struct MemoSlot {
    uint64_t ip = 0;
    int64_t process = 0;
    uint64_t generation = 0;  // 0: empty
    uint64_t location = 0;
  };
  static constexpr size_t kMemoSlots = size_t{1} << 14;
  std::vector<MemoSlot> memo_ = std::vector<MemoSlot>(kMemoSlots);
  uint64_t generation_ = 1;
  std::vector<uint64_t> stack_;
  Sample sample_;
  // The label sets of the samples (comm, pid, tid, cpu), each built once and numbered
  // (Sample::labels_id), so that the sinks copy and compare none of a set they have seen: the
  // threads of a program sampled on several CPUs take turns sample by sample in time order
  // (bigload's four: 223,388 changes in 235,340 samples). The set in use is in sample_.labels;
  // the others wait in their entries, and a change of set is two swaps of vectors.
  struct LabelsKey {
    bool has_tid = false;
    int64_t pid = 0, tid = 0;
    std::optional<uint32_t> cpu;
    bool operator==(const LabelsKey& o) const {
      return has_tid == o.has_tid && pid == o.pid && tid == o.tid && cpu == o.cpu;
    }
  };
  struct LabelsKeyHash {
    size_t operator()(const LabelsKey& k) const {
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.pid) * 0x9e3779b97f4a7c15ull ^
                                   static_cast<uint64_t>(k.tid) * 0xc2b2ae3d27d4eb4full ^
                                   (k.cpu ? *k.cpu + 1 : 0) ^ (k.has_tid ? 1ull << 63 : 0));
    }
  };
  struct LabelSet {
    LabelsKey key;
    std::string comm;  // the command name it was built with (a thread's changes with exec)
    std::vector<Label> labels;
    uint64_t id = 0;
  };
  std::vector<LabelSet> label_sets_;
  std::unordered_map<LabelsKey, size_t, LabelsKeyHash> label_set_of_;
  static constexpr size_t kNoSet = ~size_t{0};
  size_t labels_in_use_ = kNoSet;  // the set in sample_.labels, or kNoSet for labels of its own
  uint64_t last_labels_id_ = 0;
  // sample_.labels become those of set `key` with `comm` (built, or rebuilt for a new comm).
  void UseLabelSet(const LabelsKey& key, const std::string& comm);
  static void AppendThreadLabels(const LabelsKey& key, const std::string& comm,
                                 std::vector<Label>* labels);
  // Puts the set in use back into its entry.
  void ReturnLabelSet() {
    if (labels_in_use_ != kNoSet) sample_.labels.swap(label_sets_[labels_in_use_].labels);
    labels_in_use_ = kNoSet;
  }
  // Objects that could not be used, for one warning: file -> why.
  std::map<std::string, std::string> unusable_;
  std::map<std::string, std::unique_ptr<PerfJitMap>> jit_maps_;
  uint64_t unknown_event_samples_ = 0;
  uint64_t lost_ = 0;  // samples the kernel said it lost
  std::vector<TracepointFormat> formats_;
  std::vector<const TracepointFormat*> format_of_event_;
  std::unique_ptr<PerfOffCpu> off_cpu_;  // --off-cpu
  std::optional<size_t> off_cpu_type_;
  uint64_t last_time_ = 0;
  uint64_t aux_ = 0;  // AUX and itrace records, not read
};

Census PerfDataConverter::TakeCensus() {
  Census census;
  PerfRecordWalker walker(bytes_, layout_.data_offset, layout_.data_end);
  PerfRecordHeader record;
  size_t indexed = static_cast<size_t>(-1);
  std::vector<uint64_t> first_time;  // per attribute: its earliest sample
  int rounds = 0;
  int rounds_when_all_seen = -1;
  while (walker.Next(&record)) {
    window(record.at, record.at);
    if (layout_.pipe && record.type >= kKernelTypeEnd) {
      ApplyPerfHeaderRecord(bytes_, record.at, record.type, record.size, &layout_);
      if (record.type == kHeaderTracingData && record.size >= kRecordHeaderSize + 4) {
        layout_.tracing_data_at = record.at + record.size;  // the data follows the record
        layout_.tracing_data_size = bytes_.U32(record.at + kRecordHeaderSize);
        bytes_.Span(layout_.tracing_data_at, layout_.tracing_data_size, "the tracing data");
      }
    }
    switch (record.type) {
      case kSample: {
        if (indexed != layout_.attrs.size()) {
          events_ = std::make_unique<PerfEventIndex>(layout_.attrs);
          indexed = layout_.attrs.size();
          census.samples.resize(indexed);
          census.periods.resize(indexed);
        }
        const int event = events_->EventOfSample(bytes_, record);
        if (event < 0) {
          ++census.unknown_event;
          break;
        }
        const size_t e = static_cast<size_t>(event);
        if (census.samples[e]++ == 0) census.order.push_back(e);
        if (layout_.attrs[e].sample_type & kSamplePeriod) ++census.periods[e];
        ++census.total;
        first_time.resize(layout_.attrs.size(), ~uint64_t{0});
        first_time[e] = std::min(first_time[e], SampleTime(record, layout_.attrs[e]));
        break;
      }
      case kFinishedRound:
        ++rounds;
        break;
      case kCompressed:
        RefuseCompressed();
      default:
        break;
    }
    // A file's events are all known from its header: the order in which they first have
    // samples (by time, as perf script prints them) is all that the value types need of the
    // census. Once each has one, two more rounds settle it: a record after them is newer than
    // every record before them (perf's rounds). A pipe's events and features are records
    // anywhere in the stream: it is read to its end.
    if (!layout_.pipe && census.order.size() == layout_.attrs.size()) {
      if (rounds_when_all_seen < 0) rounds_when_all_seen = rounds;
      if (rounds >= rounds_when_all_seen + 2) break;
    }
  }
  std::stable_sort(census.order.begin(), census.order.end(),
                   [&](size_t a, size_t b) { return first_time[a] < first_time[b]; });
  for (PerfEventAttr& attr : layout_.attrs) {
    if (attr.name.empty()) attr.name = PerfEventFallbackName(attr);
  }
  rewind();
  events_ = std::make_unique<PerfEventIndex>(layout_.attrs);
  census.samples.resize(layout_.attrs.size());
  census.periods.resize(layout_.attrs.size());
  return census;
}

uint64_t PerfDataConverter::SampleTime(const PerfRecordHeader& record,
                                       const PerfEventAttr& attr) const {
  if ((attr.sample_type & kSampleTime) == 0) return 0;
  uint64_t at = record.at + kRecordHeaderSize;
  for (uint64_t bit : {kSampleIdentifier, kSampleIp, kSampleTid}) {
    if (attr.sample_type & bit) at += 8;
  }
  return at + 8 <= record.at + record.size ? bytes_.U64(at) : 0;
}

[[noreturn]] void PerfDataConverter::RefuseCompressed() const {
  throw ProfError(bytes_.name(),
                  "a compressed recording (perf record -z), which this reader does not read: "
                  "convert it with 'perf script -i FILE | perf2prof'");
}

void PerfDataConverter::Convert(const Census& census, std::optional<int64_t> capture_time) {
  if (layout_.attrs.empty()) throw ProfError(bytes_.name(), "no event attributes: no event");
  if (census.total == 0 && !context_.allow_empty) {
    throw ProfError(bytes_.name(),
                    "no samples (--allow-empty converts it to a profile without "
                    "samples)");
  }
  // The events as perf2prof's first pass would have found them in perf script's text.
  PerfInput input;
  input.name = bytes_.name();
  input.uri = context_.uri;
  for (size_t e : census.order) {
    input.plan.events.push_back(layout_.attrs[e].name);
    input.plan.event_samples.push_back(census.samples[e]);
    input.plan.event_periods.push_back(census.periods[e]);
  }
  for (const PerfEventAttr& attr : layout_.attrs) {
    input.plan.recorded_events.push_back(attr.name);
    PerfEventSampling sampling;
    sampling.value = attr.sample_period;
    sampling.frequency = (attr.flags & kAttrFreq) != 0;
    input.plan.recorded_sampling.push_back(sampling);
  }
  input.plan.recording = layout_.recording;
  input.plan.capture_time_nanos = capture_time;
  input.plan.samples = census.total;
  std::vector<PerfInput> inputs = {input};
  PerfOptions perf_options;
  perf_options.off_cpu = options_.off_cpu;
  perf_options.period = options_.period;
  perf_options.period_is_time = options_.period_is_time;
  const ProfileHeader header = MakePerfHeader(inputs, perf_options);
  PerfValueTypes types = NamePerfValueTypes(inputs, perf_options);
  // types.notes say how perf2prof guessed a period perf script did not print; here a sample
  // without one is worth its event's fixed sample_period exactly (the kernel records the
  // period of every sample taken by frequency), so there is nothing to warn of.
  type_count_ = header.types.size();
  ReadTracepointFormats();
  if (types.off_cpu) {
    off_cpu_type_ = types.off_cpu;
    off_cpu_ = std::make_unique<PerfOffCpu>([this](int64_t tid, uint64_t stack_id,
                                                   const std::vector<Label>& labels, int64_t time,
                                                   int64_t duration) {
      Sample off;
      off.source_id = 1;
      // Defined again, the last stack before its sample (StackDedupSink's rule).
      off.stack_id =
          stacks_interned_downstream ? DefineRawStack(switched_out_stacks_[tid]) : stack_id;
      off.values.assign(type_count_, 0);
      off.values[*off_cpu_type_] = duration;
      off.time_nanos = time;
      off.duration_nanos = duration;
      off.labels = labels;
      sink_->OnSample(off);
    });
  } else if (options_.off_cpu) {
    Warn(
        "--off-cpu: no sched:sched_switch or offcpu-time event, so no off-CPU time (record "
        "with -e sched:sched_switch -g)");
  }
  type_of_event_.assign(layout_.attrs.size(), 0);
  worth_of_event_.assign(layout_.attrs.size(), 1);
  for (size_t e = 0; e < layout_.attrs.size(); ++e) {
    const std::string& name = layout_.attrs[e].name;
    auto type = types.first_type.find(name);
    if (type != types.first_type.end()) type_of_event_[e] = type->second;
    auto worth = types.fixed_period.find(name);
    if (worth != types.fixed_period.end()) worth_of_event_[e] = worth->second;
  }
  for (const PerfBuildId& id : layout_.build_ids) {
    if (id.kernel && id.file == kKernelName) {
      kernel_build_id_ = id.build_id;
    } else if (!id.kernel) {
      build_ids_.emplace(id.file, id.build_id);
    }
  }
  StartPrefetching();
  sink_->OnHeader(header);

  bool dwarf = false;
  for (const PerfEventAttr& attr : layout_.attrs) {
    dwarf |= (attr.sample_type & kSampleStackUser) != 0;
  }
  std::string arch;
  for (const MetaEntry& entry : layout_.recording) {
    if (entry.key == "arch") arch = entry.value;
  }
  unwind_ = dwarf && options_.symbolize && DwarfUnwinder::Supports(arch);
  if (dwarf && !unwind_) {
    Warn(std::string("recorded with --call-graph dwarf: user stacks are not unwound ") +
         (options_.symbolize ? "on " + (arch.empty() ? std::string("this machine") : arch) +
                                   " (x86_64 only, for now)"
                             : "with --no-symbolize (no program is read)") +
         ", so user frames are the sampled address only");
  }

  PerfEventOrder order;
  PerfRecordWalker walker(bytes_, layout_.data_offset, layout_.data_end);
  PerfRecordHeader record;
  while (walker.Next(&record)) {
    window(std::min(order.oldest_at(), record.at), record.at);
    if (record.type == kFinishedRound) {
      order.FinishRound([&](const PerfRecordHeader& queued) { Deliver(queued); });
      continue;
    }
    switch (record.type) {
      case kLost:
        if (record.size >= kRecordHeaderSize + 16) lost_ += bytes_.U64(record.at + 16);
        break;
      case kLostSamples:
        if (record.size >= kRecordHeaderSize + 8) lost_ += bytes_.U64(record.at + 8);
        break;
      case kAux:
      case kItraceStart:
      case kAuxtrace:
      case kAuxtraceInfo:
      case kAuxtraceError:
        ++aux_;
        break;
      case kCompressed:
        RefuseCompressed();
      default:
        break;
    }
    if (record.type >= kKernelTypeEnd) continue;
    // The record's time, when it has one, queues it.
    std::optional<uint64_t> time;
    if (record.type == kSample) {
      const int event = events_->EventOfSample(bytes_, record);
      if (event >= 0) {
        const PerfEventAttr& attr = layout_.attrs[static_cast<size_t>(event)];
        if (attr.sample_type & kSampleTime) time = SampleTime(record, attr);
      }
    } else {
      const int event = events_->EventOfOther(bytes_, record);
      if (event >= 0) {
        time = DecodePerfSampleId(bytes_, record, layout_.attrs[static_cast<size_t>(event)]).time;
      }
    }
    if (time) {
      order.Queue(record, *time);
    } else {
      Deliver(record);
    }
  }
  order.Finish([&](const PerfRecordHeader& queued) { Deliver(queued); });

  if (lost_ > 0) {
    Warn("perf lost " + Counted(lost_, "sample", "samples") +
         " while recording (LOST records): the profile lacks them (record with a larger "
         "buffer, perf record -m, or a lower frequency)");
  }
  if (aux_ > 0) {
    Warn("skipped " + Counted(aux_, "AUX or itrace record", "AUX and itrace records") +
         " (hardware trace data, such as Intel PT's), which this reader does not decode");
  }
  if (off_cpu_ != nullptr && last_time_ > 0) {
    const std::string open = off_cpu_->OpenThreadsSummary();
    if (!open.empty()) {
      Warn("--off-cpu: " + open +
           " switched out and not seen running again before the recording ended: their last "
           "off-CPU interval runs to its end (record every CPU with -a, or --switch-events, "
           "to see when they ran)");
    }
    off_cpu_->End(static_cast<int64_t>(last_time_));
  }
  CompletePending();
  if (unknown_event_samples_ > 0) {
    Warn("skipped " + Counted(unknown_event_samples_, "sample", "samples") +
         " whose id names no recorded event");
  }
  if (!unusable_.empty()) {
    std::string list;
    size_t shown = 0;
    for (const auto& entry : unusable_) {
      if (shown++ == 5) {
        list += ", and " + std::to_string(unusable_.size() - 5) + " more";
        break;
      }
      list += (list.empty() ? "" : ", ") + entry.first + " (" + entry.second + ")";
    }
    Warn("frames in " + Counted(unusable_.size(), "object", "objects") +
         " kept as addresses, without symbols: " + list +
         " (install the programs and their -dbgsym packages, or give --symfs)");
  }
  sink_->OnEnd();
}

void PerfDataConverter::ReadTracepointFormats() {
  bool tracepoints = false;
  for (const PerfEventAttr& attr : layout_.attrs) tracepoints |= attr.type == kTypeTracepoint;
  if (!tracepoints || layout_.tracing_data_size == 0) return;
  formats_ = ParseTracepointFormats(
      bytes_.Span(layout_.tracing_data_at, layout_.tracing_data_size, "the tracing data"));
  format_of_event_.assign(layout_.attrs.size(), nullptr);
  for (size_t e = 0; e < layout_.attrs.size(); ++e) {
    if (layout_.attrs[e].type != kTypeTracepoint) continue;
    for (const TracepointFormat& format : formats_) {
      if (format.id == layout_.attrs[e].config) format_of_event_[e] = &format;
    }
  }
}

void PerfDataConverter::StartPrefetching() {
  if (!options_.symbolize) return;
  kernel_is_recordings_ = !options_.kallsyms.empty() && KernelIsRecordings();
  // A small recording is converted before threads would pay for themselves.
  if (bytes_.size() < ThreadedBytes()) return;
  if (kernel_is_recordings_) {
    const std::string path = options_.kallsyms;
    kernel_future_ = std::async(std::launch::async, [path] {
      auto symbols = std::make_unique<KernelSymbols>();
      if (!symbols->Load(path)) symbols.reset();
      return symbols;
    });
  }
  // The objects perf recorded build ids of (those with samples), else every program mapped.
  std::vector<std::pair<std::string, std::string>> objects;
  std::set<std::pair<std::string, std::string>> seen;
  auto add = [&](const std::string& file, const std::string& build_id) {
    if (!file.empty() && file[0] == '/' && seen.emplace(file, build_id).second) {
      objects.emplace_back(file, build_id);
    }
  };
  for (const PerfBuildId& id : layout_.build_ids) {
    if (!id.kernel) add(id.file, id.build_id);
  }
  if (objects.empty()) {
    PerfRecordWalker walker(bytes_, layout_.data_offset, layout_.data_end);
    PerfRecordHeader record;
    PerfMap map;
    int64_t process = 0;
    while (walker.Next(&record) && objects.size() < kMaxPrefetched) {
      window(record.at, record.at);
      if ((record.type == kMmap || record.type == kMmap2) &&
          MapOf(record, record.type == kMmap2, &map, &process) && process != PerfThreads::kKernel) {
        add(map.file, map.build_id);
      }
    }
  }
  rewind();
  symbolizer_.Prefetch(std::move(objects));
}

void PerfDataConverter::Deliver(const PerfRecordHeader& record) {
  switch (record.type) {
    case kSample: {
      const int event = events_->EventOfSample(bytes_, record);
      if (event < 0) {
        ++unknown_event_samples_;
        return;
      }
      OnSample(record, event);
      return;
    }
    case kMmap:
      OnMmap(record, false);
      return;
    case kMmap2:
      OnMmap(record, true);
      return;
    case kComm: {
      const uint64_t body = record.at + kRecordHeaderSize;
      const int64_t pid = static_cast<int32_t>(bytes_.U32(body));
      const int64_t tid = static_cast<int32_t>(bytes_.U32(body + 4));
      threads_.Comm(pid, tid, std::string(bytes_.String(body + 8, record.size - 16)));
      return;
    }
    case kSwitch:
    case kSwitchCpuWide:
    case kExit: {
      // A thread switched in, or exiting, runs: its off-CPU interval ends.
      if (off_cpu_ == nullptr || (record.type != kExit && (record.misc & kMiscSwitchOut) != 0)) {
        return;
      }
      const int event = events_->EventOfOther(bytes_, record);
      if (event < 0) return;
      const PerfSampleId id =
          DecodePerfSampleId(bytes_, record, layout_.attrs[static_cast<size_t>(event)]);
      int64_t tid = id.tid ? *id.tid : -1;
      if (record.type == kExit && record.size >= kRecordHeaderSize + 16) {
        tid = static_cast<int32_t>(bytes_.U32(record.at + kRecordHeaderSize + 8));
      }
      if (id.time && tid > 0) off_cpu_->Running(tid, static_cast<int64_t>(*id.time));
      return;
    }
    case kFork: {
      ++generation_;  // a new process's frames are looked up in the mappings it inherits
      const uint64_t body = record.at + kRecordHeaderSize;
      bytes_.Span(body, 16, "a fork record");
      threads_.Fork(
          static_cast<int32_t>(bytes_.U32(body)), static_cast<int32_t>(bytes_.U32(body + 4)),
          static_cast<int32_t>(bytes_.U32(body + 8)), static_cast<int32_t>(bytes_.U32(body + 12)));
      return;
    }
    default:
      return;
  }
}

bool PerfDataConverter::MapOf(const PerfRecordHeader& record, bool mmap2, PerfMap* out,
                              int64_t* process) {
  if ((record.misc & kMiscMmapData) != 0) return false;  // data, not code
  PerfMap& map = *out;
  map = PerfMap();
  const uint64_t body = record.at + kRecordHeaderSize;
  const uint64_t fixed = mmap2 ? 8 + 24 + 24 + 8 : 8 + 24;
  if (record.size < kRecordHeaderSize + fixed) bytes_.Fail(record.at, "an mmap record too short");
  const int64_t pid = static_cast<int32_t>(bytes_.U32(body));
  map.start = bytes_.U64(body + 8);
  const uint64_t length = bytes_.U64(body + 16);
  map.limit = map.start + length < map.start ? ~uint64_t{0} : map.start + length;
  map.pgoff = bytes_.U64(body + 24);
  if (mmap2) {
    if ((record.misc & kMiscMmapBuildId) != 0) {
      const uint64_t size = static_cast<unsigned char>(bytes_.Span(body + 32, 1, "a build id")[0]);
      map.build_id = LowerHex(bytes_.Span(body + 36, std::min<uint64_t>(size, 20), "a build id"));
    }
  }
  map.file = std::string(bytes_.String(body + fixed, record.size - kRecordHeaderSize - fixed));
  // Anonymous executable memory is a JIT's: perf names it after the JIT's map of its symbols.
  if (pid >= 0 && (map.file == "//anon" || map.file.rfind("/dev/zero", 0) == 0 ||
                   map.file.rfind("/anon_hugepage", 0) == 0)) {
    map.file = "/tmp/perf-" + std::to_string(pid) + ".map";
  }
  // A file deleted since it was mapped (an upgraded library, a memfd) is named as perf script
  // names its frames' object: without the mark.
  constexpr std::string_view kDeleted = " (deleted)";
  if (map.file.size() > kDeleted.size() &&
      std::string_view(map.file).substr(map.file.size() - kDeleted.size()) == kDeleted) {
    map.file.resize(map.file.size() - kDeleted.size());
  }
  const uint16_t mode = record.misc & kMiscCpumodeMask;
  const bool kernel = mode == kCpumodeKernel || pid == -1;
  if (kernel && map.file == kKernelText) {
    map.file = std::string(kKernelName);
    // As perf does, the kernel's map reaches up to whatever is mapped above it (its modules,
    // which replace their part of it): init text and the like lie past `_text`'s length.
    map.limit = ~uint64_t{0};
  }
  if (map.build_id.empty()) {
    if (kernel && map.file == kKernelName) {
      map.build_id = kernel_build_id_;
    } else {
      auto known = build_ids_.find(map.file);
      if (known != build_ids_.end()) map.build_id = known->second;
    }
  }
  *process = kernel ? PerfThreads::kKernel : pid;
  return true;
}

void PerfDataConverter::OnMmap(const PerfRecordHeader& record, bool mmap2) {
  PerfMap map;
  int64_t process = 0;
  if (MapOf(record, mmap2, &map, &process)) {
    threads_.Mmap(process, std::move(map));
    ++generation_;
  }
}

const PerfJitMap* PerfDataConverter::JitMapOf(const std::string& file) {
  if (!options_.symbolize) return nullptr;
  auto [it, added] = jit_maps_.try_emplace(file);
  if (added) {
    auto map = std::make_unique<PerfJitMap>();
    if (map->Load(options_.symfs + file)) {
      it->second = std::move(map);
    } else {
      unusable_.emplace(file,
                        "not found: record the JIT with its perf map on, such as node "
                        "--perf-basic-prof");
    }
  }
  return it->second.get();
}

ElfSymbolizer::Object* PerfDataConverter::ObjectOf(const PerfMap& map) {
  if (!options_.symbolize || map.file.empty() || map.file[0] != '/' || IsPerfJitMap(map.file)) {
    return nullptr;
  }
  ElfSymbolizer::Found found;
  ElfSymbolizer::Object* object = symbolizer_.Open(map.file, map.build_id, &found);
  if (object == nullptr) {
    const char* why = found == ElfSymbolizer::Found::kOtherBuildId ? "another build id here"
                      : found == ElfSymbolizer::Found::kNotElf     ? "not an ELF file"
                                                                   : "not found";
    unusable_.emplace(map.file, why);
  }
  return object;
}

uint64_t PerfDataConverter::MappingOf(PerfMap* map, bool kernel) {
  if (map->mapping_id == 0) {
    // A mapping's flags follow from what it maps: one id for the same mapping in several
    // processes, found by what it maps, whether its flags are known yet or not (held).
    auto [known, added] = mapping_ids_.try_emplace(
        std::make_tuple(map->start, map->limit, map->pgoff, map->file, map->build_id, kernel), 0);
    if (!added) return map->mapping_id = known->second;
    Mapping mapping;
    mapping.start = map->start;
    mapping.limit = map->limit;
    mapping.offset = map->pgoff;
    mapping.file = map->file;
    mapping.build_id = map->build_id;
    const bool ready = kernel ? KernelReady() : ObjectReady(*map);
    if (ready) {
      SetMappingFlags(*map, kernel, &mapping);
    } else {
      hold_.Hold();
      pending_.push_back(Pending{true, hold_.next_mapping(), kernel, *map, 0});
    }
    const size_t held = hold_.next_mapping();
    map->mapping_id = known->second = interner_.Mapping(mapping);
    if (!ready && hold_.next_mapping() == held) pending_.pop_back();  // not new after all
  }
  return map->mapping_id;
}

void PerfDataConverter::SetMappingFlags(const PerfMap& map, bool kernel, Mapping* mapping) {
  // The flags say what this profile has for the mapping's frames (pprof symbolises a mapping
  // later only when it lacks them).
  if (kernel) {
    if (!kernel_loaded_) LoadKernelSymbols();
    mapping->has_functions = !kernel_.empty();
  } else if (IsPerfJitMap(map.file)) {
    mapping->has_functions = JitMapOf(map.file) != nullptr;
  } else if (ElfSymbolizer::Object* object = ObjectOf(map)) {
    mapping->has_functions = true;
    mapping->has_filenames = mapping->has_line_numbers = symbolizer_.HasDwarf(object);
    mapping->has_inline_frames = mapping->has_line_numbers && options_.inlines;
  }
}

bool PerfDataConverter::KernelReady() {
  return kernel_loaded_ || !kernel_future_.valid() ||
         kernel_future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

bool PerfDataConverter::ObjectReady(const PerfMap& map) {
  if (!options_.symbolize || map.file.empty() || map.file[0] != '/' || IsPerfJitMap(map.file)) {
    return true;
  }
  return symbolizer_.Ready(map.file, map.build_id);
}

void PerfDataConverter::MaybeCompletePending() {
  if (pending_.empty()) return;
  if (hold_.held_samples() < kMaxHeldSamples) {
    if (++samples_since_check_ < 64) return;
    samples_since_check_ = 0;
    // What became ready stays ready: the check starts where the last one stopped.
    for (; checked_ < pending_.size(); ++checked_) {
      const Pending& pending = pending_[checked_];
      if (!(pending.kernel ? KernelReady() : ObjectReady(pending.map))) return;
    }
  }
  CompletePending();
}

void PerfDataConverter::CompletePending() {
  // Their functions pass on at once (hold_ holds none), before the held records that use them.
  for (Pending& pending : pending_) {
    if (pending.is_mapping) {
      SetMappingFlags(pending.map, pending.kernel, &hold_.held_mapping(pending.held));
    } else if (pending.kernel) {
      SymbolizeKernel(pending.ip, &hold_.held_location(pending.held));
    } else {
      SymbolizeUser(&pending.map, pending.ip, &hold_.held_location(pending.held));
    }
  }
  pending_.clear();
  checked_ = 0;
  hold_.Release();
}

void PerfDataConverter::AddFunction(const std::string& raw, const std::string& file, int64_t line,
                                    Location* location) {
  SymbolName names = DemangleAsPerf(raw);
  Function function;
  function.name = std::move(names.name);
  function.system_name = std::move(names.system_name);
  function.file = file;
  location->lines.push_back(Line{interner_.Function(function), line, 0});
}

void PerfDataConverter::SymbolizeUser(PerfMap* map, uint64_t ip, Location* location) {
  if (IsPerfJitMap(map->file)) {
    const PerfJitMap* jit = JitMapOf(map->file);
    const std::string_view name = jit != nullptr ? jit->Find(ip) : std::string_view();
    if (name.empty()) return;
    // perf-map-agent's inlined frames (`outer->inner`), innermost first, as perf2prof's.
    const std::vector<std::string_view> parts = SplitJitInlineChain(name);
    for (size_t i = parts.size(); i-- > 0;) {
      SymbolName names = DemangleSymbol(parts[i]);
      Function function;
      function.name = std::move(names.name);
      function.system_name = std::move(names.system_name);
      location->lines.push_back(Line{interner_.Function(function), 0, 0});
    }
    return;
  }
  ElfSymbolizer::Object* object = ObjectOf(*map);  // opened once: the symbolizer caches it
  if (object == nullptr) return;
  uint64_t vaddr = 0;
  if (!symbolizer_.Symbolize(object, ip - map->start + map->pgoff, &vaddr, &frames_)) return;
  for (const ElfFrame& frame : frames_) {
    if (!frame.function.empty()) AddFunction(frame.function, frame.file, frame.line, location);
  }
}

bool PerfDataConverter::KernelIsRecordings() const {
  if (options_.kallsyms_given) return true;
  std::string recorded_release;
  for (const MetaEntry& entry : layout_.recording) {
    if (entry.key == "os_release") recorded_release = entry.value;
  }
  const std::string running_id = RunningKernelBuildId();
  return !kernel_build_id_.empty() && !running_id.empty()
             ? kernel_build_id_ == running_id
             : !recorded_release.empty() && recorded_release == RunningKernelRelease();
}

void PerfDataConverter::LoadKernelSymbols() {
  kernel_loaded_ = true;
  if (!options_.symbolize || options_.kallsyms.empty()) return;
  // The running kernel's symbols describe the recording's only when it is the same kernel.
  if (!kernel_is_recordings_) {
    Warn(
        "the recording's kernel is not the one running here: kernel frames are kept as "
        "addresses");
    return;
  }
  std::unique_ptr<KernelSymbols> loaded;
  if (kernel_future_.valid()) {
    loaded = kernel_future_.get();
  } else {
    loaded = std::make_unique<KernelSymbols>();
    if (!loaded->Load(options_.kallsyms)) loaded.reset();
  }
  if (loaded != nullptr) {
    kernel_ = std::move(*loaded);
  } else {
    Warn(options_.kallsyms +
         (access(options_.kallsyms.c_str(), R_OK) != 0
              ? ": no such file here: kernel frames are kept as addresses"
              : " hides its addresses (kernel.kptr_restrict): kernel frames are kept as "
                "addresses"));
  }
}

void PerfDataConverter::SymbolizeKernel(uint64_t ip, Location* location) {
  if (!kernel_loaded_) LoadKernelSymbols();
  if (kernel_.empty()) return;
  const std::string_view name = kernel_.Find(ip);
  if (!name.empty()) AddFunction(std::string(name), "", 0, location);
}

uint64_t PerfDataConverter::FrameLocation(int64_t pid, uint64_t ip, bool kernel) {
  // Most frames were seen before in the same process with the same mappings: a direct-mapped
  // memo answers them with one probe. A new mapping starts a new generation, which makes every
  // slot stale at once.
  const int64_t process = kernel ? PerfThreads::kKernel : pid;
  const uint64_t hash =
      (ip * 0x9e3779b97f4a7c15ull) ^ (static_cast<uint64_t>(process) * 0xc2b2ae3d27d4eb4full);
  MemoSlot& slot = memo_[(hash >> 48) & (kMemoSlots - 1)];
  if (slot.generation == generation_ && slot.ip == ip && slot.process == process) {
    return slot.location;
  }
  slot.location = LookUpLocation(pid, ip, kernel);
  slot.ip = ip;
  slot.process = process;
  slot.generation = generation_;
  return slot.location;
}

uint64_t PerfDataConverter::LookUpLocation(int64_t pid, uint64_t ip, bool kernel) {
  PerfMap* map = threads_.Find(kernel ? PerfThreads::kKernel : pid, ip);
  const uint64_t mapping_id = map != nullptr ? MappingOf(map, kernel) : 0;
  auto cached = locations_.find({mapping_id, ip});
  if (cached != locations_.end()) return cached->second;
  Location location;
  location.mapping_id = mapping_id;
  location.address = ip;
  // A frame whose symbols are still being read on another thread is held, to be completed
  // then (HoldingSink), rather than waited for.
  bool ready = true;
  if (kernel) {
    ready = KernelReady();
    if (ready) SymbolizeKernel(ip, &location);
  } else if (map != nullptr) {
    ready = ObjectReady(*map);
    if (ready) SymbolizeUser(map, ip, &location);
  }
  if (!ready) hold_.Hold();
  const size_t held = hold_.next_location();
  const uint64_t id = interner_.Location(location);
  if (!ready && hold_.next_location() > held) {
    pending_.push_back(Pending{false, held, kernel, map != nullptr ? *map : PerfMap(), ip});
  }
  locations_.emplace(std::make_pair(mapping_id, ip), id);
  return id;
}

void PerfDataConverter::UnwindUser(const PerfSample& sample, const PerfEventAttr& attr, int64_t pid,
                                   int64_t tid) {
  unwind_sample_.pid = pid;
  unwind_sample_.tid = tid;
  unwind_sample_.mask = attr.sample_regs_user;
  unwind_sample_.registers.clear();
  for (uint64_t r = 0; r < sample.regs_user_nr; ++r) {
    unwind_sample_.registers.push_back(bytes_.U64(sample.regs_user_at + 8 * r));
  }
  unwind_sample_.stack = sample.stack_user;
  const DwarfUnwinder::FindRegion find = [&](uint64_t address, DwarfUnwinder::Region* region) {
    PerfMap* map = threads_.Find(pid, address);
    if (map == nullptr) return false;
    ElfSymbolizer::Object* object = ObjectOf(*map);
    if (object == nullptr) return false;
    region->start = map->start;
    region->limit = map->limit;
    region->pgoff = map->pgoff;
    region->path = ElfSymbolizer::PathOf(object);
    return true;
  };
  unwinder_.Unwind(unwind_sample_, find, &pcs_);
  for (uint64_t pc : pcs_) stack_.push_back(FrameLocation(pid, pc, false));
}

void PerfDataConverter::AppendThreadLabels(const LabelsKey& key, const std::string& comm,
                                           std::vector<Label>* labels) {
  labels->push_back(Label::String(kCommLabel, comm));
  if (key.has_tid) labels->push_back(Label::Number(kPidLabel, key.pid));
  labels->push_back(Label::Number(kTidLabel, key.tid));
  if (key.cpu) labels->push_back(Label::Number("cpu", *key.cpu));
}

void PerfDataConverter::UseLabelSet(const LabelsKey& key, const std::string& comm) {
  if (labels_in_use_ != kNoSet) {
    const LabelSet& in_use = label_sets_[labels_in_use_];
    if (in_use.key == key && in_use.comm == comm) return;
  }
  ReturnLabelSet();
  auto [entry, added] = label_set_of_.try_emplace(key, label_sets_.size());
  if (added) label_sets_.emplace_back();
  LabelSet& set = label_sets_[entry->second];
  if (added || set.comm != comm) {
    set.key = key;
    set.comm = comm;
    set.labels.clear();
    AppendThreadLabels(key, comm, &set.labels);
    set.id = ++last_labels_id_;
  }
  labels_in_use_ = entry->second;
  sample_.labels.swap(set.labels);
  sample_.labels_id = set.id;
}

void PerfDataConverter::OnSample(const PerfRecordHeader& record, int event) {
  MaybeCompletePending();
  const PerfEventAttr& attr = layout_.attrs[static_cast<size_t>(event)];
  PerfSample sample;
  DecodePerfSample(bytes_, record, attr, &sample);
  const int64_t tid = sample.has_tid ? sample.tid : -1;
  const int64_t pid = sample.has_tid ? sample.pid : threads_.ProcessOf(tid);
  stack_.clear();
  const uint16_t mode = record.misc & kMiscCpumodeMask;
  if (unwind_ && sample.regs_user_abi != 0 && !sample.stack_user.empty()) {
    // The kernel's part of the chain, then the user stack unwound from the registers.
    for (uint64_t i = 0; sample.has_callchain && i < sample.callchain_nr; ++i) {
      const uint64_t ip = bytes_.U64(sample.callchain_at + 8 * i);
      if (ip == kContextUser) break;
      if (ip < kContextMax) stack_.push_back(FrameLocation(pid, ip, true));
    }
    UnwindUser(sample, attr, pid, tid);
  } else if (sample.has_callchain && sample.callchain_nr > 0) {
    bool kernel = mode == kCpumodeKernel;
    bool guest = false;
    for (uint64_t i = 0; i < sample.callchain_nr; ++i) {
      const uint64_t ip = bytes_.U64(sample.callchain_at + 8 * i);
      if (ip >= kContextMax) {
        kernel = ip == kContextKernel || ip == kContextGuestKernel || ip == kContextHv;
        guest = ip == kContextGuest || ip == kContextGuestKernel || ip == kContextGuestUser;
        continue;
      }
      stack_.push_back(guest ? FrameLocation(-2, ip, false) : FrameLocation(pid, ip, kernel));
    }
  } else if (sample.ip) {
    const bool guest = mode == kCpumodeGuestKernel || mode == kCpumodeGuestUser;
    stack_.push_back(guest ? FrameLocation(-2, *sample.ip, false)
                           : FrameLocation(pid, *sample.ip,
                                           mode == kCpumodeKernel || mode == kCpumodeHypervisor));
  }
  sample_.source_id = 1;
  // Interned here, or defined just before the sample is passed on (below).
  sample_.stack_id = stacks_interned_downstream ? 0 : interner_.Stack(stack_);
  sample_.time_nanos.reset();
  if (sample.time && *sample.time <= static_cast<uint64_t>(INT64_MAX)) {
    sample_.time_nanos = static_cast<int64_t>(*sample.time);
    last_time_ = std::max(last_time_, *sample.time);
  }
  sample_.values.assign(type_count_, 0);
  const size_t type = type_of_event_[static_cast<size_t>(event)];
  sample_.values[type] = 1;
  if (type + 1 < type_count_) {
    sample_.values[type + 1] =
        sample.period ? static_cast<int64_t>(std::min<uint64_t>(*sample.period, INT64_MAX))
                      : worth_of_event_[static_cast<size_t>(event)];
  }
  const TracepointFormat* format = FormatOf(static_cast<size_t>(event));
  std::string args;
  if (format != nullptr && !sample.raw.empty()) args = TracepointArguments(*format, sample.raw);
  const size_t thread_labels = sample.has_tid ? 3 : 2;
  // Most samples of a thread follow one another: their labels are the sample before's, kept
  // as they are (no strings built) and numbered so by labels_id for the sinks, which then
  // copy and compare none (a fifth of the time to hand a sample on, measured on bigload).
  const std::string& comm = threads_.CommOf(tid);
  const LabelsKey key{sample.has_tid, pid, tid, sample.cpu};
  if (!args.empty()) {
    // A tracepoint's arguments: labels of this sample's own.
    ReturnLabelSet();
    sample_.labels.clear();
    AppendThreadLabels(key, comm, &sample_.labels);
    AppendTracepointLabels(args, &sample_.labels);
    sample_.labels_id = ++last_labels_id_;
  } else {
    UseLabelSet(key, comm);
  }
  // --off-cpu: as perf2prof reads perf script's text (perf_offcpu.h).
  const bool switch_out = off_cpu_ != nullptr && format != nullptr &&
                          format->name == "sched_switch" && sample_.time_nanos.has_value();
  if (off_cpu_ != nullptr && sample_.time_nanos) {
    const int64_t time = *sample_.time_nanos;
    if (switch_out) {
      int64_t next = -1;
      if (ParsePerfInteger(TracepointArgument(args, "next_pid"), &next)) {
        off_cpu_->Running(next, time);
      }
    } else {
      off_cpu_->Running(tid, time);
    }
    if (layout_.attrs[static_cast<size_t>(event)].name == "offcpu-time" && sample.period) {
      sample_.values[*off_cpu_type_] =
          static_cast<int64_t>(std::min<uint64_t>(*sample.period, INT64_MAX));
      sample_.duration_nanos = sample_.values[*off_cpu_type_];
    }
  }
  if (stacks_interned_downstream) sample_.stack_id = DefineRawStack(stack_);
  sink_->OnSample(sample_);
  sample_.duration_nanos.reset();
  if (switch_out) {
    int64_t prev = tid;
    ParsePerfInteger(TracepointArgument(args, "prev_pid"), &prev);
    std::vector<Label> labels(sample_.labels.begin(),
                              sample_.labels.begin() + static_cast<std::ptrdiff_t>(thread_labels));
    off_cpu_->SwitchedOut(prev, *sample_.time_nanos, sample_.stack_id, std::move(labels),
                          std::string(TracepointArgument(args, "prev_state")));
    // After: SwitchedOut closes the thread's interval before, at the stack kept before.
    if (stacks_interned_downstream) switched_out_stacks_[prev].assign(stack_.begin(), stack_.end());
  }
}

}  // namespace

bool LooksLikePerfData(std::string_view head) {
  const std::string_view magic = head.substr(0, 8);
  // PERFILE2 as a big-endian machine writes it: recognised, to be refused by name.
  return magic == "PERFILE2" || magic == "PERFFILE" || magic == "2ELIFREP";
}

PerfDataOptions PerfDataOptionsFrom(const ReaderSettings& settings) {
  PerfDataOptions options;
  for (const auto& [name, value] : settings) {
    if (name == "symfs") {
      options.symfs = value;
      while (!options.symfs.empty() && options.symfs.back() == '/') options.symfs.pop_back();
      // The recorded machine's root has the recorded kernel's symbols, if any.
      if (!options.kallsyms_given) options.kallsyms = options.symfs + "/proc/kallsyms";
      options.kallsyms_given = true;
    } else if (name == "debug-dir") {
      options.debug_dirs.push_back(value);
    } else if (name == "kallsyms") {
      options.kallsyms = value;
      options.kallsyms_given = true;
    } else if (name == "symbolize") {
      options.symbolize = value != "no";
    } else if (name == "inline") {
      options.inlines = value != "no";
    } else if (name == "period") {
      options.period = std::stoll(value);
    } else if (name == "off-cpu") {
      options.off_cpu = true;
    } else if (name == "period-is-time") {
      options.period_is_time = true;
    }
  }
  return options;
}

void ReadPerfData(Input& input, const ReadContext& context, const PerfDataOptions& options,
                  ProfileSink* sink) {
  MappedInput mapped(input, context.max_spool_size);
  PerfBytes bytes(mapped.bytes(), input.name);
  PerfDataLayout layout = ReadPerfDataLayout(bytes);
  // perf report --header's "captured on" is the file's modification time, to the second.
  std::optional<int64_t> captured;
  if (mapped.modified_nanos()) captured = *mapped.modified_nanos() / 1000000000 * 1000000000;
  const bool threaded = bytes.size() >= ThreadedBytes() && std::thread::hardware_concurrency() > 1;
  auto convert = [&](ProfileSink* into) {
    PerfDataConverter converter(bytes, layout, context, options, into);
    converter.stacks_interned_downstream = threaded;
    converter.window = [&](uint64_t keep_from, uint64_t reading) {
      mapped.Window(keep_from, reading);
    };
    converter.rewind = [&] { mapped.Rewind(); };
    const Census census = converter.TakeCensus();
    converter.Convert(census, captured);
  };
  // A large recording is converted on a thread of its own while this one delivers the records
  // to the sink (the checker and the writer): the same records either way.
  if (threaded) {
    StackDedupSink dedup(sink);
    ProduceOnThread(convert, &dedup);
  } else {
    convert(sink);
  }
}

}  // namespace proftools
