#include "common/folded/folded_reader.h"

#include <cstring>
#include <optional>
#include <vector>

#include "common/base/byte_arena.h"
#include "common/base/text_syntax.h"
#include "common/base/view_index.h"
#include "common/folded/folded_encoding.h"
#include "common/folded/folded_syntax.h"
#include "common/folded/folded_table.h"
#include "common/folded/folded_units.h"
#include "common/io/byte_stream.h"

namespace proftools {
namespace {

constexpr uint32_t kInvalidEntry = UINT32_MAX;

bool IsBlankLine(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

// One frame as its text says, parsed once however many lines hold it.
struct FrameInfo {
  uint32_t function = 0;
  int64_t line = 0;
  FrameAnnotation annotation;
  uint32_t single_location = UINT32_MAX;  // its location when nothing is inlined into it
};

// A line that is not folded stacks: why, for an error or the skipped-lines warning.
struct InvalidLine {
  std::string why;
};

}  // namespace

ValueType ParseFoldedType(const std::string& text) {
  const size_t slash = text.rfind('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) {
    throw UsageError("--type: " + Printable(text) +
                     " is not NAME/UNIT (e.g. samples/count, cpu/nanoseconds)");
  }
  return ValueType{text.substr(0, slash), text.substr(slash + 1)};
}

class FoldedReader::Impl {
 public:
  Impl(FoldedOptions options, DiagnosticHandler* warnings)
      : options_(std::move(options)), warnings_(warnings) {}

  void Add(Input& input, const std::string& uri);
  void Finish(ProfileSink* sink);

 private:
  // The entry of a stack text never seen before. Throws InvalidLine.
  uint32_t NewEntry(std::string_view stack, uint32_t source);
  const FrameInfo& Frame(std::string_view text);
  void Warn(const std::string& file, uint64_t line, const std::string& message) {
    if (warnings_ != nullptr) warnings_->Warning(Diagnostic{Rule::kInput, file, line, message});
  }

  FoldedOptions options_;
  DiagnosticHandler* warnings_;
  std::optional<FoldedTable> table_;  // made when the first line says how many values
  std::string first_input_;           // the input that decided the value count
  std::vector<Source> sources_;
  // Frames by their text (with annotations and escapes).
  ViewIndex frame_index_;
  ByteArena frame_bytes_;
  std::vector<FrameInfo> frames_;
  // Scratch of NewEntry.
  std::vector<std::string_view> frame_texts_;
  std::vector<uint32_t> stack_;
  std::vector<FoldedTable::LocalLine> lines_;
};

const FrameInfo& FoldedReader::Impl::Frame(std::string_view text) {
  const std::string_view stored = frame_bytes_.Store(text);
  bool inserted = false;
  const uint64_t id = frame_index_.Intern(stored, &inserted);
  if (!inserted) {
    frame_bytes_.Unstore(stored);
    return frames_[id - 1];
  }
  FrameInfo info;
  std::string_view name = text;
  if (!options_.keep_annotations) name = StripAnnotations(name, &info.annotation);
  std::string unescaped;
  if (!options_.raw_names && name.find('\\') != std::string_view::npos) {
    unescaped = UnescapeFoldedFrame(name);
    name = unescaped;
  }
  std::string_view function = name, file;
  if (!options_.plain_frames) SplitPythonFrame(name, &function, &file, &info.line);
  info.function = table_->Function(function, file);
  frames_.push_back(info);
  return frames_.back();
}

uint32_t FoldedReader::Impl::NewEntry(std::string_view stack, uint32_t source) {
  frame_texts_.clear();
  for (size_t begin = 0;;) {
    const size_t end = stack.find(';', begin);
    const std::string_view frame = stack.substr(begin, end - begin);
    if (frame.empty()) throw InvalidLine{"an empty frame (`;;`, or `;` at an end)"};
    frame_texts_.push_back(frame);
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  size_t first = 0;
  std::vector<Label> labels;
  if (options_.thread_root) {
    const std::string root =
        options_.raw_names ? std::string(frame_texts_[0]) : UnescapeFoldedFrame(frame_texts_[0]);
    bool process = false;
    labels = ThreadRootLabels(root, &process);
    first = 1;
    if (process && frame_texts_.size() > 1) {
      const std::string thread = UnescapeFoldedFrame(frame_texts_[1]);
      if (PythonThreadLabels(thread, &labels)) first = 2;
    }
  }
  // Locations root first: a frame marked inlined joins the location of the frame before it
  // (its caller), as the innermost line so far.
  stack_.clear();
  lines_.clear();
  CodeKind kind = CodeKind::kNative;
  uint32_t single = UINT32_MAX;  // frame index of a location of one frame so far
  const auto close = [&]() {
    if (single != UINT32_MAX) {
      FrameInfo& info = frames_[single];
      if (info.single_location == UINT32_MAX) {
        info.single_location = table_->Location(info.annotation.kind, {{info.function, info.line}});
      }
      stack_.push_back(info.single_location);
    } else if (!lines_.empty()) {
      std::vector<FoldedTable::LocalLine> innermost_first(lines_.rbegin(), lines_.rend());
      stack_.push_back(table_->Location(kind, innermost_first));
    }
    single = UINT32_MAX;
    lines_.clear();
  };
  for (size_t i = first; i < frame_texts_.size(); ++i) {
    const FrameInfo& info = Frame(frame_texts_[i]);
    const uint32_t index = static_cast<uint32_t>(&info - frames_.data());
    if (info.annotation.inlined && (single != UINT32_MAX || !lines_.empty())) {
      if (single != UINT32_MAX) {
        lines_.push_back({frames_[single].function, frames_[single].line});
        kind = frames_[single].annotation.kind;
        single = UINT32_MAX;
      }
      lines_.push_back({info.function, info.line});
      continue;
    }
    close();
    single = index;
  }
  close();
  std::vector<uint32_t> leaf_first(stack_.rbegin(), stack_.rend());
  return table_->Entry(source, table_->Labels(labels), table_->Stack(leaf_first));
}

void FoldedReader::Impl::Add(Input& input, const std::string& uri) {
  const std::string& name = input.name;
  if (input.head.substr(0, 9) == "proftext ") {
    throw ProfError(name, "is already a prof text profile (read it with prof-text)");
  }
  const uint32_t source = static_cast<uint32_t>(sources_.size());
  sources_.push_back(Source{source + 1, "folded", uri, std::nullopt});
  std::unique_ptr<ByteStream> stream = DecodedStream(std::move(input.stream));
  LineReader reader(stream.get(), options_.max_line, name);
  // Lines by their stack text: a stack seen before costs a hash, a comparison and its values.
  ViewIndex line_index;
  ByteArena line_bytes;
  std::vector<uint32_t> line_entries;
  int value_count = 0;  // of this input, from its first line
  uint64_t stacks = 0, skipped = 0, first_skipped = 0;
  std::string first_why;
  std::string_view line;
  FoldedLine parts;
  std::string why;
  try {
    while (reader.Next(&line)) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      const void* nul = std::memchr(line.data(), '\0', line.size());
      if (nul != nullptr) {
        throw ProfError(
            Diagnostic{Rule::kInput, name, reader.line_number(),
                       "a NUL byte (column " +
                           std::to_string(static_cast<const char*>(nul) - line.data() + 1) +
                           "): binary data, not folded stacks"});
      }
      if (line.empty() || IsBlankLine(line)) continue;
      if (reader.line_number() == 1 && line.substr(0, 9) == "proftext ") {
        throw ProfError(name, "is already a prof text profile (read it with prof-text)");
      }
      try {
        // The input's first line decides how many values its lines have.
        if (!SplitFoldedLine(line, value_count, &parts, &why)) {
          // A comment is a `#` line that is not a stack: prof-text --folded writes frames
          // starting with `#` as they are, and flamegraph.pl reads `#a;b 1` as a stack.
          if (line[0] == '#') continue;
          throw InvalidLine{why};
        }
        if (value_count == 0) {
          value_count = parts.value_count;
          if (!table_) {
            table_.emplace(value_count);
            first_input_ = name;
          } else if (table_->value_count() != value_count) {
            throw ProfError(Diagnostic{Rule::kInput, name, reader.line_number(),
                                       std::to_string(value_count) + " values a line, where " +
                                           first_input_ + " has " +
                                           std::to_string(table_->value_count()) +
                                           ": the inputs of one profile need the same columns"});
          }
        }
        int64_t mantissa[kMaxFoldedValues] = {};
        int decimals[kMaxFoldedValues] = {};
        for (int i = 0; i < value_count; ++i) {
          if (!ParseFoldedValue(parts.values[i], &mantissa[i], &decimals[i], &why)) {
            throw InvalidLine{why + ": " + Printable(parts.values[i])};
          }
        }
        const std::string_view stored = line_bytes.Store(parts.stack);
        bool inserted = false;
        const uint64_t id = line_index.Intern(stored, &inserted);
        if (!inserted) {
          line_bytes.Unstore(stored);
        } else {
          line_entries.push_back(kInvalidEntry);
          line_entries.back() = NewEntry(parts.stack, source);
        }
        const uint32_t entry = line_entries[id - 1];
        if (entry == kInvalidEntry) throw InvalidLine{"the same stack as an earlier invalid line"};
        for (int i = 0; i < value_count; ++i) {
          table_->AddValue(entry, i, mantissa[i], decimals[i]);
        }
        ++stacks;
      } catch (const InvalidLine& invalid) {
        if (!options_.skip_invalid) {
          throw ProfError(
              Diagnostic{Rule::kInput, name, reader.line_number(),
                         invalid.why + " (not folded stacks: `frame;frame;... COUNT`)"});
        }
        if (skipped++ == 0) {
          first_skipped = reader.line_number();
          first_why = invalid.why;
        }
      }
    }
  } catch (const LineReader::LineTooLong& e) {
    throw ProfError(Diagnostic{Rule::kInput, name, e.line_number,
                               "a line longer than " + std::to_string(options_.max_line >> 20) +
                                   " MiB: not folded stacks"});
  }
  if (skipped > 0) {
    Warn(name, first_skipped,
         std::to_string(skipped) +
             (skipped == 1 ? " line skipped that is" : " lines skipped that are") +
             " not folded stacks (this one: " + first_why + ")");
  }
  if (stacks == 0 && !options_.allow_empty) {
    throw ProfError(name,
                    "no folded stacks (`frame;frame;... COUNT` lines): is it folded stacks? "
                    "(--allow-empty converts it to a profile without samples)");
  }
}

void FoldedReader::Impl::Finish(ProfileSink* sink) {
  if (!table_) table_.emplace(1);
  ProfileHeader header;
  header.sources = sources_;
  const FoldedUnit unit = UnitForDecimals(options_.type.unit, table_->decimal_places());
  if (!unit.note.empty()) Warn(first_input_, 0, unit.note);
  if (table_->saturated()) {
    Warn(first_input_, 0, "a sum is beyond a 64-bit integer: kept at its largest value");
  }
  if (table_->value_count() == 2) {
    // difffolded.pl's columns: the profile before, then after.
    header.types = {{"before", unit.unit}, {"after", unit.unit}};
    header.default_type = "after";
  } else {
    header.types = {{options_.type.type, unit.unit}};
  }
  sink->OnHeader(header);
  table_->Emit(FoldedTable::Conversion{unit.multiply, unit.divide}, sink);
}

FoldedReader::FoldedReader(FoldedOptions options, DiagnosticHandler* warnings)
    : impl_(std::make_unique<Impl>(std::move(options), warnings)) {}
FoldedReader::~FoldedReader() = default;
void FoldedReader::Add(Input& input, const std::string& uri) {
  impl_->Add(input, uri);
}
void FoldedReader::Finish(ProfileSink* sink) {
  impl_->Finish(sink);
}

}  // namespace proftools
