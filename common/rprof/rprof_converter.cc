#include "common/rprof/rprof_converter.h"

#include <deque>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "common/base/text_syntax.h"
#include "common/model/source_meta.h"
#include "common/rprof/rprof_syntax.h"

namespace proftools {
namespace {

constexpr const char* kTopLevel = "<toplevel>";
constexpr const char* kTruncated = "<truncated>";
constexpr const char* kGcMarker = "<GC>";

// A name R wrote as `""` (R itself never does: no call has an empty name).
constexpr const char* kEmptyNameShown = "\"\"";

// The caches below are only caches: past this many bytes of keys they start again, so that a
// file of millions of distinct deep stacks cannot make them grow without bound.
constexpr size_t kCacheBytesLimit = size_t{64} << 20;

// A name that runs over a newline is joined with the lines that follow; past this size the
// line is taken as cut short instead (R's lines are at most about 10 KB).
constexpr size_t kJoinedLineLimit = size_t{1} << 20;

int64_t SaturatingAdd(int64_t a, int64_t b) {
  if (b > 0 && a > std::numeric_limits<int64_t>::max() - b) {
    return std::numeric_limits<int64_t>::max();
  }
  return a + b;
}

// The growth of one snapshot field since the previous one, never negative (memory R freed
// is not negative allocation), in bytes.
int64_t Growth(uint64_t previous, uint64_t current, int64_t bytes_per_unit) {
  return current > previous ? static_cast<int64_t>(current - previous) * bytes_per_unit : 0;
}

// Input problems: garbage or cut lines and the like. Each is a located warning (the first of
// its kind per input, then a count at the end), or an error with --strict.
enum class Problem {
  kCutLine,
  kGarbageToken,
  kGarbageLine,
  kMissingMemory,
  kUnexpectedMemory,
  kUndefinedFile,
  kEmptyName,
  kFileRedefined,
  kCount
};

// What the end-of-input count says about each problem.
const char* ProblemSummary(Problem problem) {
  switch (problem) {
    case Problem::kCutLine:
      return "sample lines were cut short";
    case Problem::kGarbageToken:
      return "sample lines held unreadable text";
    case Problem::kGarbageLine:
      return "lines were not Rprof lines and were skipped";
    case Problem::kMissingMemory:
      return "sample lines lacked the memory prefix";
    case Problem::kUnexpectedMemory:
      return "sample lines had a memory prefix their header did not announce";
    case Problem::kUndefinedFile:
      return "srcrefs named a file no #File line defined";
    case Problem::kEmptyName:
      return "frames had an empty name";
    case Problem::kFileRedefined:
      return "#File lines redefined a file number";
    case Problem::kCount:
      break;
  }
  return "";
}

// Things R really writes that cannot be read without a guess: warned about once per input, never
// an error.
enum class Notice { kNewlineName, kQuoteSpaceName, kStackLimit, kCount };

}  // namespace

ProfileHeader MakeRprofHeader(const std::vector<RprofInput>& inputs) {
  ProfileHeader header;
  uint64_t source_id = 0;
  bool memory = false;
  SourceMetaTable headers;
  for (const RprofInput& input : inputs) {
    for (const RprofSession& session : input.plan.sessions) {
      ++source_id;
      header.sources.push_back(Source{source_id, "rprof", input.uri, std::nullopt});
      headers.Set("rprof.header", source_id, session.header.text);
      memory = memory || session.header.memory;
    }
  }
  if (!inputs.empty() && !inputs.front().plan.sessions.empty()) {
    const uint64_t interval = inputs.front().plan.sessions.front().header.interval_us;
    header.period = Period{ValueType{"cpu", "nanoseconds"}, static_cast<int64_t>(interval) * 1000};
  }
  header.types.push_back(ValueType{"samples", "count"});
  header.types.push_back(ValueType{"cpu", "nanoseconds"});
  if (memory) {
    header.types.push_back(ValueType{"alloc", "bytes"});
    header.types.push_back(ValueType{"duplications", "count"});
  }
  header.default_type = "cpu";
  // One run's header is plain; runs with different headers have rprof.header@ID each (§4.2).
  header.meta = headers.Entries(source_id, false);
  return header;
}

// The state of converting one input: its current session, #File table, caches, the previous
// memory snapshot, and its warnings.
class RprofConverter::InputReader {
 public:
  InputReader(RprofConverter* converter, size_t index)
      : c_(*converter),
        input_(converter->inputs_[index]),
        first_source_(converter->first_source_[index]) {
    sample_.values.assign(c_.memory_types_ ? 4 : 2, 0);
  }

  void Run(ByteStream* stream) {
    LimitedStream limited(stream, input_.plan.bytes);
    LineReader lines(&limited, LineReader::kDefaultMaxLine, input_.name);
    std::string_view line;
    try {
      while (lines.Next(&line)) {
        line_ = lines.line_number();
        if (pending_active_ && Continue(line, lines.had_newline())) continue;
        Dispatch(line, lines.had_newline());
      }
    } catch (const LineReader::LineTooLong& e) {
      throw ProfError(Diagnostic{Rule::kInput, input_.name, e.line_number,
                                 "line longer than 64 MiB: this is not a file written by Rprof()"});
    }
    if (pending_active_) FlushPending();
    if (session_ + 1 != input_.plan.sessions.size()) ChangedBetweenPasses();
    Summarize();
  }

 private:
  struct StackEntry {
    uint64_t stack_id[2] = {0, 0};  // [0]: as written; [1]: with a <truncated> root
    bool open_quote = false;        // the text ends inside a name
    bool cut = false;               // the text ends without its final space
    bool skip = false;              // nothing readable: not a sample
    unsigned problems = 0;          // bit set of the Problems found in the text
  };

  struct CachedFrame {
    uint64_t location = 0;
    unsigned problems = 0;  // bit set of the Problems found in the frame
  };

  void Dispatch(std::string_view line, bool had_newline) {
    const RprofLineKind kind = ClassifyRprofLine(line);
    // The first pass found a header on line 1; without one now, the file was replaced.
    if (header_ == nullptr && kind != RprofLineKind::kHeader) ChangedBetweenPasses();
    switch (kind) {
      case RprofLineKind::kHeader:
        StartSession();
        return;
      case RprofLineKind::kFile:
        DefineFile(line);
        return;
      case RprofLineKind::kSample:
        if (!ProcessSample(line, line_, had_newline, /*may_hold=*/true)) {
          pending_.assign(line.data(), line.size());
          pending_line_ = line_;
          pending_active_ = true;
        }
        return;
      case RprofLineKind::kOther:
        Report(Problem::kGarbageLine, line_,
               line.empty() ? "an empty line is not an Rprof line; skipped"
                            : "not an Rprof line; skipped: " + Printable(line));
        return;
    }
  }

  // A sample line that ended inside a name is waiting. A following line that cannot start
  // anything else continues that name after a newline (R does not escape names). Returns true
  // when `line` was consumed.
  bool Continue(std::string_view line, bool had_newline) {
    if (ClassifyRprofLine(line) != RprofLineKind::kOther ||
        pending_.size() + line.size() + 1 > kJoinedLineLimit) {
      FlushPending();
      return false;
    }
    pending_ += '\n';
    pending_.append(line.data(), line.size());
    Notify(Notice::kNewlineName, pending_line_,
           "a function name holds a newline (R does not escape names): line " +
               std::to_string(line_) +
               " is read as its continuation; a continuation line that starts with '\"', ':' "
               "or a digit could not be told from a new sample");
    // Only the new line can close the name: while it does not, the joined text is not parsed
    // again (that made many short continuation lines quadratic in the joined length).
    if (had_newline && RprofStillInsideName(line)) return true;
    if (ProcessSample(pending_, pending_line_, had_newline, /*may_hold=*/had_newline)) {
      pending_active_ = false;
    }
    return true;
  }

  void FlushPending() {
    pending_active_ = false;
    ProcessSample(pending_, pending_line_, true, /*may_hold=*/false);
  }

  void StartSession() {
    ++session_;
    if (session_ >= input_.plan.sessions.size() || input_.plan.sessions[session_].line != line_) {
      ChangedBetweenPasses();
    }
    header_ = &input_.plan.sessions[session_].header;
    cpu_ = static_cast<int64_t>(header_->interval_us) * 1000;
    files_.clear();
    ClearCaches();
    has_previous_memory_ = false;
  }

  [[noreturn]] void ChangedBetweenPasses() {
    throw ProfError(Diagnostic{Rule::kInput, input_.name, line_,
                               "the input changed while it was read (is R still writing it?)"});
  }

  void DefineFile(std::string_view line) {
    uint64_t number = 0;
    std::string_view path;
    if (!ParseRprofFileLine(line, &number, &path)) {
      Report(Problem::kGarbageLine, line_,
             "malformed #File line (expected '#File N: PATH'); skipped: " + Printable(line));
      return;
    }
    auto inserted = files_.emplace(number, std::string(path));
    if (!inserted.second && inserted.first->second != path) {
      Report(Problem::kFileRedefined, line_,
             "#File " + std::to_string(number) + " was already defined as " +
                 Printable(inserted.first->second) + "; the new path applies from here on");
      inserted.first->second.assign(path.data(), path.size());
      ClearCaches();
    }
  }

  // Converts one sample line (a logical line: with a newline name, several physical ones).
  // Returns false, converting nothing, when `may_hold` and the line ends inside a name: the
  // caller then waits for its continuation.
  bool ProcessSample(std::string_view line, uint64_t line_number, bool had_newline, bool may_hold) {
    RprofMemory memory;
    size_t prefix = 0;
    const RprofPrefix kind = ParseRprofMemoryPrefix(line, &memory, &prefix);
    if (kind == RprofPrefix::kMalformed) {
      Report(Problem::kGarbageLine, line_number,
             "malformed memory prefix (expected ':small_v:big_v:nodes:dup_count:'); skipped: " +
                 Printable(line));
      return true;
    }
    const std::string_view text = line.substr(prefix);
    parsed_text_ = std::string_view();
    if (may_hold && !text.empty() && text.back() != ' ' && stacks_.find(text) == stacks_.end()) {
      // A line that ends inside a name waits for its continuation before anything is built
      // (or reported) for it.
      ParseRprofStack(text, &parsed_);
      if (parsed_.end == RprofLineEnd::kOpenQuote) return false;
    }
    auto& [key, entry] = Lookup(text, line_number);
    if (entry.skip) return true;

    bool has_memory = false;
    if (kind == RprofPrefix::kValid && header_->memory) {
      has_memory = true;
    } else if (kind == RprofPrefix::kValid) {
      Report(Problem::kUnexpectedMemory, line_number,
             "a memory prefix, but the header does not say 'memory profiling'; ignored");
    } else if (header_->memory) {
      Report(Problem::kMissingMemory, line_number,
             "no memory prefix, but the header says 'memory profiling'; the sample has no "
             "memory values");
    }

    // A line cut short lost its outer frames, and so did one that reached R's limit: R stops
    // adding frames once the line holds kRprofLineLimit bytes.
    const char* cut = entry.open_quote ? "the line ends inside a function name"
                      : entry.cut      ? "the line does not end with a space as R writes it"
                      : !had_newline   ? "the last line has no newline"
                                       : nullptr;
    if (cut != nullptr) {
      Report(Problem::kCutLine, line_number,
             std::string(cut) + ": it was cut short; kept with a " + kTruncated + " root frame");
    }
    const bool at_limit = line.size() >= kRprofLineLimit;
    if (at_limit) {
      Notify(Notice::kStackLimit, line_number,
             "a sample line reached R's limit of " + std::to_string(kRprofLineLimit) +
                 " bytes, so R left out its outermost frames; such stacks end in a " + kTruncated +
                 " frame");
    }
    const bool truncated = cut != nullptr || at_limit;
    uint64_t& stack = entry.stack_id[truncated ? 1 : 0];
    if (stack == 0) {
      // Built on first need only, so that no unused <truncated> stack is ever defined.
      if (parsed_text_.data() != key.data()) ParseRprofStack(key, &parsed_);
      problems_seen_ = 0;
      BuildLocations(line_number);
      stack = FinishStack(truncated, line_number);
      entry.problems |= problems_seen_;
    }
    Emit(stack, has_memory ? &memory : nullptr);
    return true;
  }

  // The cache entry for the text of a sample line (after its memory prefix), parsing it on
  // first sight. Problems found in the text are reported when it is parsed and counted again
  // whenever it recurs. The entry's stacks are built when first needed.
  std::pair<const std::string_view, StackEntry>& Lookup(std::string_view text,
                                                        uint64_t line_number) {
    auto it = stacks_.find(text);
    if (it != stacks_.end()) {
      Recount(it->second.problems);
      return *it;
    }
    if (cache_bytes_ > kCacheBytesLimit) ClearCaches();
    keys_.emplace_back(text);
    cache_bytes_ += text.size();
    const std::string_view key = keys_.back();
    StackEntry entry;
    problems_seen_ = 0;
    ParseRprofStack(key, &parsed_);
    parsed_text_ = key;
    entry.open_quote = parsed_.end == RprofLineEnd::kOpenQuote;
    entry.cut = parsed_.end == RprofLineEnd::kCut;
    if (parsed_.end == RprofLineEnd::kGarbage) {
      const std::string where = "unreadable text at byte " +
                                std::to_string(parsed_.garbage_offset + 1) +
                                " of the stack: " + Printable(key.substr(parsed_.garbage_offset));
      if (parsed_.frames.empty() && !parsed_.trailing.present()) {
        Report(Problem::kGarbageLine, line_number, where + "; line skipped");
        entry.skip = true;
      } else {
        Report(Problem::kGarbageToken, line_number,
               where + "; the frames before it are kept, with a " + kTruncated + " root frame");
        entry.cut = true;
      }
    }
    if (parsed_.empty_name) {
      Report(Problem::kEmptyName, line_number,
             std::string("a frame with an empty name; kept under the name ") + kEmptyNameShown);
    }
    if (parsed_.quote_space_in_name) {
      Notify(Notice::kQuoteSpaceName, line_number,
             "a function name holds '\" ' (R does not escape names): read as one name because "
             "no token follows the '\" '; a name holding '\" \"' cannot be told from two "
             "frames and is read as two");
    }
    entry.problems = problems_seen_;
    return *stacks_.emplace(key, entry).first;
  }

  // The locations of the parsed frames, innermost first, into frame_locations_.
  void BuildLocations(uint64_t line_number) {
    frame_locations_.clear();
    for (const RprofFrame& frame : parsed_.frames) {
      auto it = frames_.find(frame.span);
      if (it == frames_.end()) {
        const unsigned before = problems_seen_;
        problems_seen_ = 0;
        const std::string_view name = frame.name.empty() ? kEmptyNameShown : frame.name;
        const uint64_t location = LocationOf(name, frame.srcref, line_number);
        it = frames_.emplace(frame.span, CachedFrame{location, problems_seen_}).first;
        problems_seen_ |= before;
      } else {
        Recount(it->second.problems);
      }
      frame_locations_.push_back(it->second.location);
    }
  }

  // The stack for the parsed line: its frames, then the root pseudo-frame if one applies.
  uint64_t FinishStack(bool truncated, uint64_t line_number) {
    stack_locations_ = frame_locations_;
    const std::vector<RprofFrame>& frames = parsed_.frames;
    // With GC profiling, a leading "<GC>" is R's marker, not a function R was running.
    const bool gc_marker = header_->gc && !frames.empty() && frames.front().name == kGcMarker;
    const bool no_function = frames.size() == (gc_marker ? 1u : 0u);
    if (truncated) {
      stack_locations_.push_back(LocationOf(kTruncated, parsed_.trailing, line_number));
    } else if (parsed_.trailing.present() || no_function) {
      stack_locations_.push_back(LocationOf(kTopLevel, parsed_.trailing, line_number));
    }
    return c_.interner_.Stack(stack_locations_);
  }

  // The location of function `name` at `srcref` (its file and line; none: no file, line 0).
  uint64_t LocationOf(std::string_view name, RprofSrcref srcref, uint64_t line_number) {
    function_.name.assign(name.data(), name.size());
    function_.file.clear();
    int64_t line = 0;
    if (srcref.present()) {
      auto file = files_.find(srcref.file);
      if (file != files_.end()) {
        function_.file = file->second;
        line = srcref.line;
      } else {
        Report(Problem::kUndefinedFile, line_number,
               "srcref " + std::to_string(srcref.file) + "#" + std::to_string(srcref.line) +
                   " names file " + std::to_string(srcref.file) +
                   ", which no #File line defined; its line number is dropped");
      }
    }
    location_.lines.assign(1, Line{c_.interner_.Function(function_), line, 0});
    return c_.interner_.Location(location_);
  }

  void Emit(uint64_t stack, const RprofMemory* memory) {
    sample_.source_id = first_source_ + session_;
    sample_.stack_id = stack;
    sample_.values[0] = 1;
    sample_.values[1] = cpu_;
    sample_.labels.clear();
    if (c_.memory_types_) {
      int64_t alloc = 0;
      int64_t duplications = 0;
      if (memory != nullptr) {
        // summaryRprof(memory = "both"): the positive growth of each field since the previous
        // tick, vector cells counted as 8 bytes. The first tick of a session has no previous.
        if (has_previous_memory_) {
          alloc = SaturatingAdd(SaturatingAdd(Growth(previous_memory_.small_v, memory->small_v, 8),
                                              Growth(previous_memory_.big_v, memory->big_v, 8)),
                                Growth(previous_memory_.nodes, memory->nodes, 1));
        }
        duplications = static_cast<int64_t>(memory->dup_count);
        previous_memory_ = *memory;
        has_previous_memory_ = true;
        sample_.labels.push_back(
            Label::Number("vsize.small", static_cast<int64_t>(memory->small_v) * 8, "bytes"));
        sample_.labels.push_back(
            Label::Number("vsize.large", static_cast<int64_t>(memory->big_v) * 8, "bytes"));
        sample_.labels.push_back(
            Label::Number("nodes", static_cast<int64_t>(memory->nodes), "bytes"));
      }
      sample_.values[2] = alloc;
      sample_.values[3] = duplications;
    }
    c_.sink_->OnSample(sample_);
  }

  void ClearCaches() {
    stacks_.clear();
    frames_.clear();
    keys_.clear();
    cache_bytes_ = 0;
  }

  void Report(Problem problem, uint64_t line_number, const std::string& message) {
    problems_seen_ |= 1u << static_cast<int>(problem);
    ProblemCount& count = problems_[static_cast<int>(problem)];
    if (count.count++ == 0) count.first_line = line_number;
    if (c_.options_.strict) {
      throw ProfError(Diagnostic{Rule::kInput, input_.name, line_number, message + " (--strict)"});
    }
    if (count.count == 1) {
      c_.warnings_->Warning(Diagnostic{Rule::kInput, input_.name, line_number, message});
    }
  }

  // Counts again the problems of a cached line or frame that recurs.
  void Recount(unsigned problems) {
    problems_seen_ |= problems;
    for (int i = 0; problems != 0; ++i, problems >>= 1) {
      if (problems & 1u) ++problems_[i].count;
    }
  }

  void Notify(Notice notice, uint64_t line_number, const std::string& message) {
    bool& given = notices_[static_cast<int>(notice)];
    if (given) return;
    given = true;
    c_.warnings_->Warning(Diagnostic{Rule::kInput, input_.name, line_number, message});
  }

  void Summarize() {
    for (int i = 0; i < static_cast<int>(Problem::kCount); ++i) {
      const ProblemCount& count = problems_[i];
      if (count.count < 2) continue;
      c_.warnings_->Warning(Diagnostic{
          Rule::kInput, input_.name, 0,
          std::to_string(count.count) + " " + ProblemSummary(static_cast<Problem>(i)) +
              " (the first, on line " + std::to_string(count.first_line) + ", is shown above)"});
    }
  }

  struct ProblemCount {
    uint64_t count = 0;
    uint64_t first_line = 0;
  };

  RprofConverter& c_;
  const RprofInput& input_;
  const uint64_t first_source_;
  uint64_t line_ = 0;
  size_t session_ = static_cast<size_t>(-1);
  const RprofHeader* header_ = nullptr;
  int64_t cpu_ = 0;
  std::unordered_map<uint64_t, std::string> files_;

  // Caches: the text of a sample line -> its stack; the text of a frame -> its location. Keys
  // point into keys_.
  std::deque<std::string> keys_;
  size_t cache_bytes_ = 0;
  std::unordered_map<std::string_view, StackEntry> stacks_;
  std::unordered_map<std::string_view, CachedFrame> frames_;
  unsigned problems_seen_ = 0;  // Problems reported while the current line is parsed

  std::string pending_;
  uint64_t pending_line_ = 0;
  bool pending_active_ = false;

  bool has_previous_memory_ = false;
  RprofMemory previous_memory_;

  ProblemCount problems_[static_cast<int>(Problem::kCount)];
  bool notices_[static_cast<int>(Notice::kCount)] = {};

  // Scratch space, reused for every line.
  RprofStackText parsed_;
  std::string_view parsed_text_;  // the cache key parsed_ holds the parse of, if any
  std::vector<uint64_t> frame_locations_;
  std::vector<uint64_t> stack_locations_;
  Function function_;
  Location location_;
  Sample sample_;
};

RprofConverter::RprofConverter(ProfileSink* sink, const std::vector<RprofInput>& inputs,
                               DiagnosticHandler* warnings, RprofOptions options)
    : sink_(sink), inputs_(inputs), warnings_(warnings), options_(options), interner_(sink) {
  const ProfileHeader header = MakeRprofHeader(inputs);
  memory_types_ = header.types.size() > 2;
  uint64_t next_source = 1;
  for (const RprofInput& input : inputs) {
    first_source_.push_back(next_source);
    next_source += input.plan.sessions.size();
  }
  sink_->OnHeader(header);
}

RprofConverter::~RprofConverter() = default;

void RprofConverter::Convert(size_t index, ByteStream* stream) {
  InputReader reader(this, index);
  reader.Run(stream);
}

void RprofConverter::Finish() {
  sink_->OnEnd();
}

}  // namespace proftools
