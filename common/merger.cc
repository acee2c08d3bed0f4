#include "common/merger.h"

#include <utility>

#include "common/diagnostics.h"
#include "common/id_table.h"
#include "common/merge_aggregate.h"

namespace proftools {

// What the interner sends: every distinct definition once, in order of first appearance,
// kept until Finish() can pass them on after the merged preamble.
class Merger::DefinitionLog : public ProfileSink {
 public:
  void OnHeader(const ProfileHeader&) override {}
  void OnMapping(const Mapping& m) override { mappings.push_back(m); }
  void OnFunction(const Function& f) override { functions.push_back(f); }
  void OnLocation(const Location& l) override { locations.push_back(l); }
  void OnStack(const Stack& s) override { stacks.push_back(s); }
  void OnSample(const Sample&) override {}
  void OnEnd() override {}

  // Drops what was logged after the interner was at `mark` (ids are 1, 2, ... in log order).
  void TruncateTo(const Interner::Mark& mark) {
    mappings.resize(mark.mappings);
    functions.resize(mark.functions);
    locations.resize(mark.locations);
    stacks.resize(mark.stacks);
  }

  // Sends everything to `sink` in define-before-use order and frees it.
  void Replay(ProfileSink* sink) {
    for (const Mapping& m : mappings) sink->OnMapping(m);
    for (const Function& f : functions) sink->OnFunction(f);
    for (const Location& l : locations) sink->OnLocation(l);
    for (const Stack& s : stacks) sink->OnStack(s);
    *this = DefinitionLog();
  }

  std::vector<Mapping> mappings;
  std::vector<Function> functions;
  std::vector<Location> locations;
  std::vector<Stack> stacks;
};

// Receives one input: remaps its ids to the merged profile's and parks its samples.
class Merger::InputSink : public ProfileSink {
 public:
  InputSink(Merger* merger, const Input& input, const std::string& uri)
      : merger_(merger), input_(input), uri_(uri) {}

  void OnHeader(const ProfileHeader& header) override {
    const std::vector<uint64_t> numbers = merger_->header_.Add(
        header, input_.name, input_.format == InputFormat::kPprof ? "pprof" : "prof", uri_);
    uint64_t ignored;
    for (size_t i = 0; i < header.sources.size(); ++i) {
      sources_.Insert(header.sources[i].id, numbers[i], &ignored);
    }
    // An input without sources got one, which its samples (if a reader makes any) belong to.
    if (header.sources.empty()) default_source_ = numbers[0];
  }

  void OnMapping(const Mapping& m) override {
    Map(&mappings_, m.id, merger_->interner_->Mapping(m));
  }

  void OnFunction(const Function& f) override {
    Map(&functions_, f.id, merger_->interner_->Function(f));
  }

  void OnLocation(const Location& l) override {
    location_ = l;
    if (l.mapping_id != 0) location_.mapping_id = Find(mappings_, l.mapping_id, "mapping");
    for (Line& line : location_.lines) {
      line.function_id = Find(functions_, line.function_id, "function");
    }
    Map(&locations_, l.id, merger_->interner_->Location(location_));
  }

  void OnStack(const Stack& s) override {
    stack_.clear();
    for (uint64_t id : s.location_ids) stack_.push_back(Find(locations_, id, "location"));
    Map(&stacks_, s.id, merger_->interner_->Stack(stack_));
  }

  void OnSample(const Sample& s) override {
    uint64_t source;
    if (!sources_.Find(s.source_id, &source)) {
      if (default_source_ == 0) Undefined("source", s.source_id);
      source = default_source_;
    }
    merger_->spool_.Write(source, Find(stacks_, s.stack_id, "stack"), s);
    ++samples_;
  }

  void OnEnd() override {}

  uint64_t samples() const { return samples_; }

 private:
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
    throw ProfError(input_.name, std::string("refers to ") + kind + " " + std::to_string(id) +
                                     ", which it does not define");
  }

  Merger* merger_;
  const Input& input_;
  const std::string& uri_;
  IdMap sources_, mappings_, functions_, locations_, stacks_;
  uint64_t default_source_ = 0;
  uint64_t samples_ = 0;
  Location location_;
  std::vector<uint64_t> stack_;
};

Merger::Merger(MergeOptions options)
    : options_(options),
      definitions_(std::make_unique<DefinitionLog>()),
      interner_(std::make_unique<Interner>(definitions_.get())) {}

Merger::~Merger() = default;

void Merger::Add(Input& input, const std::string& uri) {
  if (!options_.recoverable) {
    InputSink sink(this, input, uri);
    ReadProfile(input, &sink);
    inputs_.push_back({input.name, sink.samples()});
    return;
  }
  const Interner::Mark definitions = interner_->GetMark();
  const uint64_t spooled = spool_.Mark();
  HeaderMerger header = header_;
  try {
    InputSink sink(this, input, uri);
    ReadProfile(input, &sink);
    inputs_.push_back({input.name, sink.samples()});
  } catch (...) {
    interner_->Rollback(definitions);
    definitions_->TruncateTo(definitions);
    spool_.TruncateTo(spooled);
    header_ = std::move(header);
    throw;
  }
}

void Merger::Finish(ProfileSink* sink) {
  const ProfileHeader header = header_.Result(options_.drop_sources);
  interner_.reset();  // the definitions are in the log; holding them twice more is a waste
  sink->OnHeader(header);
  definitions_->Replay(sink);

  SampleAggregator aggregator(header.types.size());
  spool_.Rewind();
  Sample in;
  Sample out;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const std::vector<HeaderMerger::Column> columns = header_.Columns(i, header);
    for (uint64_t n = 0; n < inputs_[i].samples; ++n) {
      spool_.Read(columns.size(), &in);
      out.source_id = options_.drop_sources ? 1 : in.source_id;
      out.stack_id = in.stack_id;
      out.time_nanos = in.time_nanos;
      out.duration_nanos = in.duration_nanos;
      out.values.assign(header.types.size(), 0);
      for (size_t c = 0; c < columns.size(); ++c) {
        if (__builtin_mul_overflow(in.values[c], columns[c].factor,
                                   &out.values[columns[c].index])) {
          throw ProfError(inputs_[i].name, "value " + std::to_string(in.values[c]) + " of type '" +
                                               header.types[columns[c].index].type +
                                               "' does not fit in 64 bits once converted to " +
                                               header.types[columns[c].index].unit);
        }
      }
      std::swap(out.labels, in.labels);
      if (options_.aggregate) {
        aggregator.Add(out);
      } else {
        sink->OnSample(out);
      }
    }
  }
  aggregator.Emit(sink);
  sink->OnEnd();
}

}  // namespace proftools
