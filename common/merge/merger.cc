#include "common/merge/merger.h"

#include <utility>

#include "common/base/diagnostics.h"
#include "common/base/id_table.h"
#include "common/base/text_syntax.h"
#include "common/io/whole_input.h"
#include "common/merge/merge_aggregate.h"
#include "common/model/sink_thread.h"

namespace proftools {
namespace {

// An input read whole of at most this size is read on the merging thread (Merger::Add).
constexpr size_t kReadInlineBytes = size_t{256} << 10;

}  // namespace

// Where the interner sends each new definition: to the spool, in order.
class Merger::SpoolingSink : public ProfileSink {
 public:
  explicit SpoolingSink(MergeSpool* spool) : spool_(spool) {}
  void set_interner(const Interner* interner) { interner_ = interner; }
  void OnHeader(const ProfileHeader&) override {}
  void OnMapping(const Mapping& m) override { spool_->WriteMapping(m); }
  void OnFunction(const Function& f) override { spool_->WriteFunction(f); }
  void OnLocation(const Location& l) override { spool_->WriteLocation(l); }
  // The interner has just encoded the ids as the spool writes them: no second encoding.
  void OnStack(const Stack& s) override {
    spool_->WriteEncodedStack(s.id, interner_->EncodedStack(s.id));
  }
  void OnSample(const Sample&) override {}
  void OnEnd() override {}

 private:
  MergeSpool* spool_;
  const Interner* interner_ = nullptr;
};

// Receives one input: remaps its ids to the merged profile's and parks its records.
class Merger::InputSink : public ProfileSink {
 public:
  // `*source_type` is read at the header: a prefetched input's reading thread sets it first.
  InputSink(Merger* merger, const std::string& name, const char* const* source_type,
            const std::string& uri)
      : merger_(merger),
        name_(name),
        source_type_(source_type),
        uri_(uri),
        sources_(merger->input_ids_.sources),
        mappings_(merger->input_ids_.mappings),
        functions_(merger->input_ids_.functions),
        locations_(merger->input_ids_.locations),
        stacks_(merger->input_ids_.stacks) {
    merger->input_ids_.Clear();
  }

  void OnHeader(const ProfileHeader& header) override {
    const std::vector<uint64_t> numbers = merger_->header_.Add(header, name_, *source_type_, uri_);
    uint64_t ignored;
    for (size_t i = 0; i < header.sources.size(); ++i) {
      sources_.Insert(header.sources[i].id, numbers[i], &ignored);
    }
    // An input without sources got one, which its samples (if a reader makes any) belong to.
    if (header.sources.empty()) default_source_ = numbers[0];
    input_ = merger_->header_.input_count() - 1;
    merger_->spool_.WriteInput(input_);
    merger_->KeepSumming(input_, header.types);
  }

  void OnMapping(const Mapping& m) override {
    Drain();
    Map(&mappings_, m.id, merger_->interner_->Mapping(m));
  }

  void OnFunction(const Function& f) override {
    Drain();
    Map(&functions_, f.id, merger_->interner_->Function(f));
  }

  // Locations, stacks and samples wait in a short queue before they are interned and spooled,
  // in their order: each location and stack is prepared on arrival (its key hashed, its slot in
  // the interner fetched), so that the slot is in cache when its turn comes. A pprof input's
  // locations come in one run; its stacks come each just before its sample, which waits with it.
  void OnLocation(const Location& l) override {
    Pending& p = Push(Pending::kLocation);
    p.input_id = l.id;
    Location& location = p.location.location;
    location = l;
    if (l.mapping_id != 0) location.mapping_id = Find(mappings_, l.mapping_id, "mapping");
    for (Line& line : location.lines) {
      line.function_id = Find(functions_, line.function_id, "function");
    }
    merger_->interner_->PrepareLocation(location, &p.location);
    ++pending_locations_;
  }

  void OnStack(const Stack& s) override {
    if (pending_locations_ > 0) Drain();  // its locations' ids
    Pending& p = Push(Pending::kStack);
    p.input_id = s.id;
    std::vector<uint64_t>& ids = p.stack.location_ids;
    ids.clear();
    for (uint64_t id : s.location_ids) ids.push_back(Find(locations_, id, "location"));
    merger_->interner_->PrepareStack(&p.stack);
  }

  void OnSample(const Sample& s) override {
    uint64_t source;
    if (!sources_.Find(s.source_id, &source)) {
      if (default_source_ == 0) Undefined("source", s.source_id);
      source = default_source_;
    }
    Pending& p = Push(Pending::kSample);
    p.source = source;
    // Numbered in sample order either way; a sample whose reader says its labels are the last
    // sample's (labels_id) is not hashed again.
    if (s.labels_id == 0 || s.labels_id != last_labels_id_) {
      last_label_set_ = merger_->spool_.LabelSetId(s.labels);
      last_labels_id_ = s.labels_id;
    }
    p.label_set = last_label_set_;
    p.sample.stack_id = s.stack_id;
    p.sample.time_nanos = s.time_nanos;
    p.sample.duration_nanos = s.duration_nanos;
    p.sample.values.assign(s.values.begin(), s.values.end());
  }

  void OnEnd() override { Drain(); }

  // Interns and spools what waits (before any other record, and at the end: a reader need not
  // end with OnEnd).
  void Drain() {
    while (count_ > 0) PopOldest();
  }

 private:
  static constexpr size_t kQueued = 16;

  struct Pending {
    enum Kind { kLocation, kStack, kSample } kind = kLocation;
    uint64_t input_id = 0;  // a location's or stack's id in the input
    Interner::PreparedLocation location;
    Interner::PreparedStack stack;
    uint64_t source = 0, label_set = 0;  // a sample's, in the merge
    Sample sample;  // its stack id (the input's), times and values; not its labels
  };

  // The queue's next entry, of `kind`; the oldest is interned first when the queue is full.
  Pending& Push(Pending::Kind kind) {
    if (count_ == kQueued) PopOldest();
    Pending& p = queue_[(first_ + count_) % kQueued];
    ++count_;
    p.kind = kind;
    return p;
  }

  void PopOldest() {
    const Pending& p = queue_[first_];
    first_ = (first_ + 1) % kQueued;
    --count_;
    Interner& interner = *merger_->interner_;
    switch (p.kind) {
      case Pending::kLocation:
        Map(&locations_, p.input_id, interner.InternPrepared(p.location));
        --pending_locations_;
        break;
      case Pending::kStack:
        Map(&stacks_, p.input_id, interner.InternPrepared(p.stack));
        break;
      case Pending::kSample: {
        const uint64_t stack = Find(stacks_, p.sample.stack_id, "stack");
        if (merger_->sums_ != nullptr &&
            merger_->SumArriving(input_, p.source, stack, p.label_set, p.sample.values)) {
          merger_->spool_.CountSample();
        } else {
          merger_->spool_.WriteSample(p.source, stack, p.sample, p.label_set);
        }
        break;
      }
    }
  }

  static void Map(IdMap* map, uint64_t from, uint64_t to) {
    uint64_t ignored;
    map->Insert(from, to, &ignored);
  }
  uint64_t Find(const IdMap& map, uint64_t id, const char* kind) const {
    uint64_t to;
    if (!map.Find(id, &to)) Undefined(kind, id);
    return to;
  }
  // Readers deliver only checked records; this guards against a reader that does not.
  [[noreturn]] void Undefined(const char* kind, uint64_t id) const {
    throw ProfError(name_, std::string("refers to ") + kind + " " + std::to_string(id) +
                               ", which it does not define");
  }

  Merger* merger_;
  const std::string& name_;
  const char* const* source_type_;  // of the source an input without sources gets: its reader's
  const std::string& uri_;
  // The input's ids -> the merge's: the Merger's maps, cleared for each input.
  IdMap &sources_, &mappings_, &functions_, &locations_, &stacks_;
  uint64_t default_source_ = 0;
  size_t input_ = 0;  // the input's number in the merge, from its header
  uint64_t last_labels_id_ = 0, last_label_set_ = 0;  // of the last sample
  Pending queue_[kQueued];                            // a ring: the oldest at first_
  size_t first_ = 0, count_ = 0, pending_locations_ = 0;
};

Merger::Merger(MergeOptions options)
    : options_(options),
      spooling_(std::make_unique<SpoolingSink>(&spool_)),
      interner_(std::make_unique<Interner>(spooling_.get())) {
  spooling_->set_interner(interner_.get());
}

Merger::~Merger() = default;

// A reader's warnings kept until its input is merged (PrefetchedInput). Only the reading thread
// adds to it until Show, which is called once that thread has ended.
class BufferedWarnings : public DiagnosticHandler {
 public:
  explicit BufferedWarnings(DiagnosticHandler* to) : to_(to) {}
  void Error(const Diagnostic& diagnostic) override {
    if (to_ != nullptr) {
      to_->Error(diagnostic);
    } else {
      DiagnosticHandler::Error(diagnostic);
    }
  }
  void Warning(const Diagnostic& diagnostic) override { kept_.push_back(diagnostic); }
  void Show() {
    if (to_ != nullptr) {
      for (const Diagnostic& diagnostic : kept_) to_->Warning(diagnostic);
    }
    kept_.clear();
  }

 private:
  DiagnosticHandler* to_;
  std::vector<Diagnostic> kept_;
};

PrefetchedInput::PrefetchedInput() = default;
PrefetchedInput::~PrefetchedInput() = default;

void Merger::Add(Input& input, const std::string& uri) {
  ReadOptions read_options = options_.read;
  read_options.uri = uri;
  const char* source_type = ReaderFor(input, read_options).name;
  // The input is read (inflated, decoded, checked) on a thread of its own while this one
  // interns and spools what it reads: two cores for one input, the same records in order. An
  // input known to be small (all of it in the sniffed head, or a small gzipped file inflated
  // whole) is read on this thread: starting a thread and handing over its few batches costs
  // more than reading it (a fleet of small profiles; the merge property tests' 7,000 merges).
  const bool small = input.head.size() < kSniffBytes ||
                     (input.inflated != nullptr && input.inflated->size() <= kReadInlineBytes);
  AddInput(input.name, &source_type, uri, [&](ProfileSink* sink) {
    if (small) {
      ReadProfile(input, sink, read_options);
      return;
    }
    ProduceOnThread([&](ProfileSink* out) { ReadProfile(input, out, read_options); }, sink);
  });
}

std::unique_ptr<PrefetchedInput> Merger::Prefetch(const std::string& path,
                                                  const std::string& uri) const {
  auto prefetched = std::make_unique<PrefetchedInput>();
  PrefetchedInput* p = prefetched.get();
  p->path_ = path;
  p->uri_ = uri;
  p->name_ = path;
  p->warnings_ = std::make_unique<BufferedWarnings>(options_.read.warnings);
  ReadOptions read_options = options_.read;
  read_options.uri = uri;
  read_options.warnings = p->warnings_.get();
  p->producer_ = std::make_unique<BackgroundProducer>([p, read_options](ProfileSink* out) {
    Input input = OpenInput(p->path_);
    p->name_ = input.name;
    p->source_type_ = ReaderFor(input, read_options).name;
    ReadProfile(input, out, read_options);
  });
  return prefetched;
}

void Merger::Add(std::unique_ptr<PrefetchedInput> input) {
  PrefetchedInput& p = *input;
  AddInput(p.name_, &p.source_type_, p.uri_, [&](ProfileSink* sink) {
    try {
      p.producer_->Deliver(sink);
    } catch (...) {
      p.warnings_->Show();  // what the reader said before it failed, first
      throw;
    }
    p.warnings_->Show();
  });
}

void Merger::AddInput(const std::string& name, const char* const* source_type,
                      const std::string& uri, const std::function<void(ProfileSink*)>& read) {
  if (!options_.recoverable) {
    InputSink sink(this, name, source_type, uri);
    read(&sink);
    sink.Drain();
    inputs_.push_back(name);
    return;
  }
  const Interner::Mark definitions = interner_->GetMark();
  const uint64_t spooled = spool_.Mark();
  HeaderMerger header = header_;
  try {
    InputSink sink(this, name, source_type, uri);
    read(&sink);
    sink.Drain();
    inputs_.push_back(name);
  } catch (...) {
    interner_->Rollback(definitions);
    spool_.TruncateTo(spooled);
    header_ = std::move(header);
    throw;
  }
}

void Merger::KeepSumming(size_t input, const std::vector<ValueType>& types) {
  // A skipped input's samples could not be taken back out of the sums.
  if (!options_.aggregate || options_.recoverable) return;
  if (input == 0) {
    first_types_ = types;
    sums_ = std::make_unique<SampleAggregator>(types.size());
  } else if (sums_ != nullptr && types != first_types_) {
    StopSumming(input);  // summed from the spool by Finish, converted
  }
}

bool Merger::SumArriving(size_t input, uint64_t source, uint64_t stack, uint64_t label_set,
                         const std::vector<int64_t>& values) {
  if (values.size() != first_types_.size()) {  // not from a checked reader: Finish will tell
    StopSumming(input);
    return false;
  }
  sums_->Add(options_.drop_sources ? 1 : source, stack, label_set, values.data());
  return true;
}

void Merger::StopSumming(size_t input) {
  // The sums stand for the samples counted so far: every one of the first input's types (those
  // of every input so far), in order of first appearance, which is the order the spool's
  // samples would have given Finish's sums. A sum converts to the merged unit as its samples
  // would, but for one case: a sum whose conversion overflows is refused, its samples perhaps
  // not.
  sums_->Flush();
  spool_.WriteInput(0);
  Sample sample;
  sums_->ForEachKey([&](uint64_t source, uint64_t stack, uint64_t label_set, const uint64_t* sums) {
    sample.values.assign(sums, sums + first_types_.size());
    spool_.WriteSample(source, stack, sample, label_set);
  });
  spool_.WriteInput(input);
  sums_.reset();
}

bool Merger::ValuesUnconverted(const ProfileHeader& header) const {
  for (size_t input = 0; input < header_.input_count(); ++input) {
    const std::vector<HeaderMerger::Column> columns = header_.Columns(input, header);
    if (columns.size() != header.types.size()) return false;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].index != c || columns[c].factor != 1) return false;
    }
  }
  return true;
}

template <typename OnSample, typename OnRun>
void Merger::Replay(const ProfileHeader& header, ProfileSink* definitions, bool sample_values,
                    OnSample on_sample, OnRun on_run) {
  std::vector<HeaderMerger::Column> columns;
  size_t input = 0;
  Mapping mapping;
  Function function;
  Location location;
  Stack stack;
  Sample in;
  Sample out;
  uint64_t out_label_set = 0;  // the label set out.labels holds (0: none)
  spool_.Rewind();
  for (SpoolRecord kind; (kind = spool_.Next()) != SpoolRecord::kEnd;) {
    switch (kind) {
      case SpoolRecord::kInput:
        input = static_cast<size_t>(spool_.ReadInput());
        columns = header_.Columns(input, header);
        break;
      case SpoolRecord::kMapping:
        spool_.ReadMapping(&mapping);
        if (definitions != nullptr) definitions->OnMapping(mapping);
        break;
      case SpoolRecord::kFunction:
        spool_.ReadFunction(&function);
        if (definitions != nullptr) definitions->OnFunction(function);
        break;
      case SpoolRecord::kLocation:
        spool_.ReadLocation(&location);
        if (definitions != nullptr) definitions->OnLocation(location);
        break;
      case SpoolRecord::kStack:
        if (definitions == nullptr) {
          spool_.SkipStack();  // most of the spool, when every sample has its own stack
        } else {
          spool_.ReadStack(&stack);
          definitions->OnStack(stack);
        }
        break;
      case SpoolRecord::kSample: {
        if (!sample_values) {
          spool_.SkipSample(columns.size());
          on_sample(out, 0);
          break;
        }
        // The labels are copied only when they change: consecutive samples mostly share them
        // (a thread's), and copying a label set's strings for each was 5% of a fleet merge.
        const uint64_t label_set = spool_.ReadSampleExceptLabels(columns.size(), &in);
        if (label_set != out_label_set) {
          spool_.LabelsOf(label_set, &out.labels);
          out_label_set = label_set;
        }
        out.source_id = options_.drop_sources ? 1 : in.source_id;
        out.stack_id = in.stack_id;
        out.time_nanos = in.time_nanos;
        out.duration_nanos = in.duration_nanos;
        out.values.assign(header.types.size(), 0);
        for (size_t c = 0; c < columns.size(); ++c) {
          if (__builtin_mul_overflow(in.values[c], columns[c].factor,
                                     &out.values[columns[c].index])) {
            throw ProfError(inputs_[input], "value " + std::to_string(in.values[c]) + " of type " +
                                                Printable(header.types[columns[c].index].type) +
                                                " does not fit in 64 bits once converted to " +
                                                header.types[columns[c].index].unit);
          }
        }
        on_sample(out, label_set);
        break;
      }
      case SpoolRecord::kSampleRun:
        on_run(spool_.ReadSampleRun());
        break;
      case SpoolRecord::kEnd:
        break;
    }
  }
}

void Merger::Finish(ProfileSink* sink) {
  const ProfileHeader header = header_.Result(options_.drop_sources);
  const std::string disagreement = header_.DefaultTypeDisagreement();
  if (!disagreement.empty() && options_.read.warnings != nullptr) {
    options_.read.warnings->Warning(Diagnostic{Rule::kInput, "", 0, disagreement});
  }
  interner_.reset();  // interning is over; the spool has every definition
  sink->OnHeader(header);
  const auto no_runs = [](uint64_t) {};
  if (!options_.aggregate) {
    Replay(
        header, sink, true, [&](const Sample& sample, uint64_t) { sink->OnSample(sample); },
        no_runs);
  } else if (sums_ != nullptr) {
    // Summed as the samples arrived, which the spool only counted: the definitions are
    // replayed and each key is sent where its first sample was (see
    // SampleAggregator::EmitThrough).
    if (!ValuesUnconverted(header)) {
      throw ProfError("(merged profile)", "internal error: inputs of one type need converting");
    }
    std::unique_ptr<SampleAggregator> sums = std::move(sums_);
    sums->Flush();
    uint64_t number = 0;  // samples so far
    Replay(
        header, sink, false, [](const Sample&, uint64_t) {},
        [&](uint64_t count) {
          number += count;
          sums->EmitThrough(number - 1, spool_, sink);
        });
  } else {
    // Summed now, from the spool: the sums are keyed by the spool's label set ids (no label is
    // copied or compared), and made here, on no thread of its own (its samples' copies to a
    // second thread cost more than the sums). Then the definitions are replayed again, and each
    // key is sent where its first sample was: the samples need only be counted.
    SampleAggregator sums(header.types.size());
    Replay(
        header, nullptr, true,
        [&](const Sample& sample, uint64_t label_set) { sums.Add(sample, label_set); }, no_runs);
    sums.Flush();
    uint64_t number = 0;
    Replay(
        header, sink, false,
        [&](const Sample&, uint64_t) { sums.EmitThrough(number++, spool_, sink); }, no_runs);
  }
  sink->OnEnd();
}

}  // namespace proftools
