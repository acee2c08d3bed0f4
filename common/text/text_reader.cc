#include "common/text/text_reader.h"

#include <string>
#include <string_view>
#include <vector>

#include "common/base/counted.h"
#include "common/base/recent_slots.h"
#include "common/base/text_syntax.h"
#include "common/model/checker.h"
#include "common/model/record.h"
#include "common/text/canonical_lines.h"
#include "common/text/record_parser.h"

namespace proftools {
namespace {

constexpr std::string_view kMagic = "proftext";

// MAJOR and MINOR: decimal, no sign, no leading zeros, at most 9 digits (§3).
bool ParseVersionNumber(std::string_view text, int* out) {
  int64_t value;
  if (text.size() > 9 || !ParseInt(text, &value) || value < 0) return false;
  *out = static_cast<int>(value);
  return true;
}

class TextReader {
 public:
  TextReader(ByteStream* stream, const std::string& name, ProfileSink* sink,
             DiagnosticHandler* handler)
      : lines_(stream, LineReader::kDefaultMaxLine, name),
        name_(name),
        sink_(sink),
        handler_(handler),
        checker_(handler, name) {}

  TextReadStats Run() {
    try {
      if (ReadHeader()) ReadBody();
    } catch (const LineReader::LineTooLong& too_long) {
      Fail(too_long.line_number, Rule::kLineTooLong,
           "line is longer than " + std::to_string(LineReader::kDefaultMaxLine >> 20) +
               " MiB; is this really a prof text file?");
      return stats_;
    }
    return stats_;
  }

 private:
  void Fail(uint64_t line, Rule rule, std::string message) {
    handler_->Error(Diagnostic{rule, name_, line, std::move(message)});
  }

  bool ReadHeader() {
    std::string_view line;
    if (!lines_.Next(&line)) {
      Fail(0, Rule::kHeader, "empty input; a prof text file starts with the line 'proftext 1.0'");
      return false;
    }
    const std::string_view prefix = line.substr(0, kMagic.size() + 1);
    if (prefix != "proftext ") {
      Fail(1, Rule::kHeader,
           "not a prof text file: the first line must be 'proftext MAJOR.MINOR', found " +
               Printable(line));
      return false;
    }
    const std::string_view version = line.substr(kMagic.size() + 1);
    const size_t dot = version.find('.');
    if (dot == std::string_view::npos ||
        !ParseVersionNumber(version.substr(0, dot), &stats_.major) ||
        !ParseVersionNumber(version.substr(dot + 1), &stats_.minor)) {
      Fail(1, Rule::kHeader,
           "malformed version " + Printable(version) + " (expected MAJOR.MINOR, e.g. 1.0)");
      return false;
    }
    const std::string text = std::to_string(stats_.major) + "." + std::to_string(stats_.minor);
    if (stats_.major > kFormatMajor) {
      Fail(1, Rule::kVersion,
           "format version " + text + " is newer than this program reads (" +
               std::to_string(kFormatMajor) + ".x); upgrade proftools");
      return false;
    }
    if (stats_.major < 1) {
      Fail(1, Rule::kVersion, "format version " + text + " does not exist (versions start at 1.0)");
      return false;
    }
    // After header and version: a file that is not prof text of a version this program reads
    // breaks no other rule.
    CheckFinalNewline(1);
    return true;
  }

  // A last line without LF was most likely cut short: that is reported before anything else on
  // the line, whose other faults are probably consequences (§6.1).
  void CheckFinalNewline(uint64_t number) {
    if (!lines_.had_newline()) {
      Fail(number, Rule::kFinalNewline, "the file ends without a newline (was it cut short?)");
    }
  }

  void ReadBody() {
    std::string_view line;
    std::vector<std::string_view> tokens;
    std::string error;
    ParseFailure failure;
    uint64_t first_skipped_line = 0;
    while (lines_.Next(&line)) {
      const uint64_t number = lines_.line_number();
      CheckFinalNewline(number);
      std::string_view labels;
      if (ParseCanonicalStack(line, &record_)) {
        checker_.set_line(number);
        AcceptRecord(RecordKind::kStack);
        continue;
      }
      const bool canonical_sample =
          ParseCanonicalSample(line, checker_.sample_values(), &record_, &labels);
      if (canonical_sample && labels.empty()) {
        record_.sample.labels.clear();
        record_.sample.labels_id = 0;
        checker_.set_line(number);
        AcceptRecord(RecordKind::kSample);
      } else if (canonical_sample && LendKnownLabels(labels)) {
        checker_.set_line(number);
        AcceptRecord(RecordKind::kSample);
        record_.sample.labels.swap(lent_->labels);  // given back
      } else if (!Tokenize(line, &tokens, &error)) {
        Fail(number, Rule::kSyntax, error);
        NoteUnreadableRecord(number, line);
      } else if (!tokens.empty()) {
        record_.sample.labels_id = 0;
        const uint64_t samples = stats_.samples;
        ReadRecord(number, tokens, &failure, &first_skipped_line);
        // A canonical sample whose labels were parsed the general way: they are kept, with
        // their text, for the next samples of the same labels.
        if (canonical_sample && stats_.samples > samples) KeepLabels(labels);
      }
    }
    stats_.lines = lines_.line_number();
    if (stats_.skipped_records > 0) {
      handler_->Warning(
          Diagnostic{Rule::kUnknownRecord, name_, first_skipped_line,
                     "skipped " + Counted(stats_.skipped_records, "record", "records") +
                         " of kinds unknown to this program, allowed because the file's version " +
                         std::to_string(stats_.major) + "." + std::to_string(stats_.minor) +
                         " is newer than " + std::to_string(kFormatMajor) + "." +
                         std::to_string(kFormatMinor)});
    }
    if (!header_sent_) SendHeader();
    checker_.set_line(0);
    checker_.Finish();
    sink_->OnEnd();
  }

  void ReadRecord(uint64_t number, const std::vector<std::string_view>& tokens,
                  ParseFailure* failure, uint64_t* first_skipped_line) {
    RecordKind kind;
    if (!RecordKindFromName(tokens[0], &kind)) {
      if (tokens[0] == kMagic) {
        Fail(number, Rule::kHeaderRepeated,
             "a second 'proftext' header: concatenated profiles are not one profile "
             "(combine them with prof-merge)");
      } else if (stats_.minor > kFormatMinor) {
        if (stats_.skipped_records++ == 0) *first_skipped_line = number;
      } else {
        Fail(number, Rule::kUnknownRecord,
             "unknown record kind " + Printable(tokens[0]) +
                 " (known: meta, comment, time, "
                 "duration, period, doc_url, drop_frames, keep_frames, source, type, default_type, "
                 "mapping, function, location, stack, sample)");
      }
      return;
    }
    checker_.set_line(number);
    if (!ParseRecord(kind, tokens, checker_.sample_values(), &record_, failure)) {
      Fail(number, failure->rule, failure->message);
      checker_.NoteUnparsedRecord(kind, failure->id);
      return;
    }
    AcceptRecord(kind);
  }

  // A line with a syntax error still shows its kind in its first word: a `type` line declares a
  // column and a body line ends the preamble, so that the lines after it are judged as intended.
  void NoteUnreadableRecord(uint64_t number, std::string_view line) {
    const size_t begin = line.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return;
    const size_t end = line.find_first_of(" \t", begin);
    RecordKind kind;
    if (!RecordKindFromName(line.substr(begin, end - begin), &kind)) return;
    checker_.set_line(number);
    checker_.NoteUnparsedRecord(kind, 0);
  }

  // Checks the record just parsed into record_ and hands it on.
  void AcceptRecord(RecordKind kind) {
    if (!checker_.Check(record_)) return;
    if (IsPreamble(kind)) {
      ApplyPreambleRecord(record_, &header_);
      return;
    }
    if (!header_sent_) SendHeader();
    switch (kind) {
      case RecordKind::kMapping:
        sink_->OnMapping(record_.mapping);
        break;
      case RecordKind::kFunction:
        sink_->OnFunction(record_.function);
        break;
      case RecordKind::kLocation:
        sink_->OnLocation(record_.location);
        break;
      case RecordKind::kStack:
        sink_->OnStack(record_.stack);
        break;
      case RecordKind::kSample:
        ++stats_.samples;
        sink_->OnSample(record_.sample);
        break;
      default:
        break;
    }
  }

  void SendHeader() {
    header_sent_ = true;
    sink_->OnHeader(header_);
  }

  // The label sets of the last few canonical samples with labels, each with its text and a
  // number (Sample::labels_id): the samples of a recording mostly take turns between a few
  // threads' labels, which are then neither tokenized nor decoded again, and the sinks, told by
  // labels_id, need not compare them either.
  struct KnownLabels {
    std::string text;
    std::vector<Label> labels;
    uint64_t id = 0;
  };
  // Lends record_.sample the labels of `text` when known (swapped in: the caller gives them
  // back after the sample is passed on); false when not.
  bool LendKnownLabels(std::string_view text) {
    KnownLabels* known =
        known_labels_.Find([&](const KnownLabels& slot) { return slot.text == text; });
    if (known == nullptr) return false;
    record_.sample.labels.swap(known->labels);
    record_.sample.labels_id = known->id;
    lent_ = known;
    return true;
  }
  void KeepLabels(std::string_view text) {
    KnownLabels& slot = known_labels_.Replace();
    slot.text.assign(text.data(), text.size());
    slot.labels = record_.sample.labels;
    slot.id = ++last_labels_id_;
  }
  RecentSlots<KnownLabels, 16> known_labels_;
  KnownLabels* lent_ = nullptr;
  uint64_t last_labels_id_ = 0;

  LineReader lines_;
  const std::string& name_;
  ProfileSink* sink_;
  DiagnosticHandler* handler_;
  Checker checker_;
  ProfileHeader header_;
  bool header_sent_ = false;
  Record record_;
  TextReadStats stats_;
};

}  // namespace

TextReadStats ReadText(ByteStream* stream, const std::string& name, ProfileSink* sink,
                       DiagnosticHandler* handler) {
  DiagnosticHandler throwing;
  TextReader reader(stream, name, sink, handler != nullptr ? handler : &throwing);
  return reader.Run();
}

}  // namespace proftools
