#include "common/cli/filter_options.h"
#include "common/base/text_syntax.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/quantity.h"
#include "common/filter/profile_filter.h"
#include "common/filter/time_window.h"
#include "common/model/checker.h"
#include "common/model/sink_thread.h"
#include "common/report/value_format.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace {

// "10%" -> "90%" (100 minus a percentage as typed; the text itself when it is not one).
std::string PercentComplement(const std::string& percent) {
  // As parts per billion, exactly: ParseQuantity reads "12.5" as 13, so scale by hand.
  const std::string number = percent.substr(0, percent.size() - 1);
  Decimal decimal;
  if (!ParseDecimal(number, &decimal) || decimal.negative || decimal.scale > 7) return "P%";
  unsigned __int128 ppb = decimal.digits;
  for (int i = decimal.scale; i < 7; ++i) ppb *= 10;  // percent -> parts per 10^9
  if (ppb > 1000000000) return "P%";
  const uint64_t rest = 1000000000 - static_cast<uint64_t>(ppb);
  std::string text = std::to_string(rest / 10000000);
  uint64_t fraction = rest % 10000000;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 7 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text + "%";
}

// Nanoseconds as the seconds --time's @ bounds take: "81356.25".
std::string Seconds(int64_t nanos) {
  std::string text = std::to_string(nanos / 1000000000);
  int64_t fraction = nanos % 1000000000;
  if (fraction < 0) fraction = -fraction;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text;
}

// ": the samples span 12s (@81356.25..@81368.25)", per source when there are several (the
// first few), so that a window past the end says how far the profile goes.
std::string SpansText(const std::unordered_map<uint64_t, SourceSpan>& spans) {
  std::vector<uint64_t> ids;
  for (const auto& [id, span] : spans) {
    if (!span.empty()) ids.push_back(id);
  }
  if (ids.empty()) return ": no sample has a time";
  std::sort(ids.begin(), ids.end());
  constexpr size_t kShown = 3;
  std::string text;
  for (size_t i = 0; i < ids.size() && i < kShown; ++i) {
    const SourceSpan& span = spans.at(ids[i]);
    text += i == 0 ? "" : "; ";
    if (ids.size() > 1) text += "source " + std::to_string(ids[i]) + " ";
    text += std::string(ids.size() > 1 ? "spans " : "span ") +
            FormatValue(span.end - span.first, "nanoseconds", false) + " (@" + Seconds(span.first) +
            "..@" + Seconds(span.end) + ")";
  }
  if (ids.size() > kShown) text += "; ...";
  return (ids.size() > 1 ? ": " : ": the samples ") + text;
}

// `--option VALUE` for the meta record: the value quoted for a shell when it needs it.
void Describe(FilterSpec* spec, const std::string& option, const std::string& value) {
  spec->options.push_back(value.empty() ? option : option + "=" + value);
  std::string* description = &spec->description;
  if (!description->empty()) *description += ' ';
  *description += "--" + option;
  if (value.empty()) return;
  bool plain = true;
  for (char c : value) {
    plain = plain && (isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("%@.,:=+-_/").find(c) != std::string_view::npos);
  }
  *description += plain ? " " + value : " '" + value + "'";
}

}  // namespace

void AddFilterOptions(CommandLine* cli) {
  for (const char* repeatable :
       {"split-on", "label-focus", "label-ignore", "focus", "ignore", "hide", "show", "show-from",
        "prune-from", "focus-seq", "derive"}) {
    cli->AllowRepeated(repeatable);
  }
  cli->AddOptions("Time (samples need times; see prof-filter(1))")(
      "time",
      "keep what happened in the window A..B: offsets from each source's first sample (1.5s, "
      "250ms), percentages of its span (10%..20%), or timestamps (@81356.2); either end may be "
      "left out. Samples with a duration count in proportion to their overlap",
      OptionValue(),
      "A..B")("last", "keep the last D of each source (e.g. 30s)", OptionValue(), "D")(
      "keep-untimed", "with --time or --last, keep samples that have no time")(
      "coalesce",
      "join consecutive samples of a thread with the same stack at most GAP apart into one "
      "sample with a duration (auto, the default: 1.5 sampling intervals)",
      OptionValue().implicit_value("auto"), "GAP")(
      "split-on", "with --coalesce, start a new sample where value TYPE is non-zero (repeatable)",
      OptionValue(), "TYPE");
  cli->AddOptions("Labels")(
      "label-focus",
      "keep samples with a label KEY matching VALUE: a number, a range LOW..HIGH with units "
      "(alloc=1KiB..1MiB), else a regular expression; repeated, all must match",
      OptionValue(), "KEY=VALUE")(
      "label-ignore", "drop samples with a label KEY matching VALUE (repeatable)", OptionValue(),
      "KEY=VALUE")("keep-labels", "keep only these label keys", OptionValue(), "K,...")(
      "drop-labels", "drop these label keys", OptionValue(), "K,...");
  // pprof's frame filters: a RE (RE2, unanchored) matches a frame by its function's name or
  // file name, or its location's mapping's file; repeated options are alternatives.
  cli->AddOptions("Frames (pprof's filters; a repeated option's REs are alternatives)")(
      "focus", "keep samples with a frame matching RE (function, file or mapping file)",
      OptionValue(), "RE")("ignore", "drop samples with a frame matching RE", OptionValue(), "RE")(
      "hide", "remove the frames matching RE", OptionValue(), "RE")(
      "show", "keep only the frames matching RE", OptionValue(), "RE")(
      "show-from", "keep only the frames from the root-most match of RE to the leaf", OptionValue(),
      "RE")("prune-from",
            "remove the callees of the leaf-most frame whose function name matches RE",
            OptionValue(), "RE")(
      "focus-seq",
      "keep samples with frames matching A, B, C in a row (root to leaf), re-rooted at A; "
      "repeatable, each narrowing the last",
      OptionValue(),
      "'A;B;C'")("literal",
                 "frame patterns are frame names as reports print them, matched whole "
                 "(=NAME makes one pattern literal)")(
      "keep-dropped-frames",
      "do not apply the profile's drop_frames (pprof applies it on loading)")(
      "collapse-recursion",
      "keep each directly repeated cycle of a stack once: a b c b c d becomes a b c d");
  cli->AddOptions("Values")("derive",
                            "a new value type from a sum or difference of types with one unit "
                            "(live=alloc_space-free_space; repeatable)",
                            OptionValue(), "NAME=EXPR")(
      "types", "keep only these value types, in this order", OptionValue(), "T,...")(
      "default-type", "the type reports show by default", OptionValue(), "T");
}

FilterSpec ParseFilterOptions(const CommandLine& cli) {
  FilterSpec spec;
  if (cli.Has("coalesce")) {
    spec.coalesce.enabled = true;
    const std::string gap = cli.Get<std::string>("coalesce");
    if (gap != "auto") {
      int64_t nanos;
      std::string error;
      if (!ParseDuration(gap, &nanos, &error)) throw UsageError("--coalesce: " + error);
      spec.coalesce.gap_nanos = nanos;
    }
    Describe(&spec, gap == "auto" ? "coalesce" : "coalesce=" + gap, "");
  }
  for (const std::string& type : cli.GetAll("split-on")) {
    if (!spec.coalesce.enabled) throw UsageError("--split-on goes with --coalesce");
    spec.coalesce.split_on.push_back(type);
    Describe(&spec, "split-on", type);
  }
  if (cli.Has("time")) {
    const std::string window = cli.Get<std::string>("time");
    spec.time = ParseTimeWindow(window);
    Describe(&spec, "time", window);
  }
  if (cli.Has("last")) {
    const std::string last = cli.Get<std::string>("last");
    int64_t nanos;
    std::string error;
    if (!last.empty() && last.back() == '%') {
      // A share of the span is what --time's percentages say.
      throw UsageError("--last takes a duration such as 30s or 250ms, not " + Printable(last) +
                       "; for the last " + last + " of each source's span write --time " +
                       PercentComplement(last) + "..");
    }
    if (!ParseDuration(last, &nanos, &error)) {
      throw UsageError(
          "--last takes a duration such as 30s, 250ms or 2m (units ns, us, ms, s, "
          "m, h), not " +
          Printable(last));
    }
    spec.time.last_nanos = nanos;
    Describe(&spec, "last", last);
  }
  if (cli.Has("keep-untimed")) {
    if (!spec.time.active()) throw UsageError("--keep-untimed goes with --time or --last");
    spec.time.keep_untimed = true;
    Describe(&spec, "keep-untimed", "");
  }
  for (const std::string& match : cli.GetAll("label-focus")) {
    spec.labels.focus.push_back(ParseLabelMatch("--label-focus", match));
    Describe(&spec, "label-focus", match);
  }
  for (const std::string& match : cli.GetAll("label-ignore")) {
    spec.labels.ignore.push_back(ParseLabelMatch("--label-ignore", match));
    Describe(&spec, "label-ignore", match);
  }
  if (cli.Has("keep-labels")) {
    spec.labels.keep = SplitList("--keep-labels", cli.Get<std::string>("keep-labels"));
    Describe(&spec, "keep-labels", cli.Get<std::string>("keep-labels"));
  }
  if (cli.Has("drop-labels")) {
    spec.labels.drop = SplitList("--drop-labels", cli.Get<std::string>("drop-labels"));
    Describe(&spec, "drop-labels", cli.Get<std::string>("drop-labels"));
  }
  FrameSpec& frames = spec.frames;
  const bool literal = cli.Has("literal");
  if (literal) Describe(&spec, "literal", "");
  auto keep_regex = [&](const std::string& option, const std::string& pattern) {
    if (!IsLiteralPattern(pattern, literal)) frames.regex_patterns.emplace_back(option, pattern);
  };
  for (auto [option, regex] : {std::pair{"focus", &frames.focus},
                               {"ignore", &frames.ignore},
                               {"hide", &frames.hide},
                               {"show", &frames.show},
                               {"show-from", &frames.show_from},
                               {"prune-from", &frames.prune_from}}) {
    const std::vector<std::string> patterns = cli.GetAll(option);
    *regex = CompileFrameRegex(std::string("--") + option, patterns, literal);
    for (const std::string& pattern : patterns) {
      Describe(&spec, option, pattern);
      keep_regex(std::string("--") + option, pattern);
    }
  }
  for (const std::string& sequence : cli.GetAll("focus-seq")) {
    frames.focus_seq.push_back(ParseFocusSequence(sequence, literal));
    Describe(&spec, "focus-seq", sequence);
    for (size_t start = 0; start <= sequence.size();) {
      const size_t end = std::min(sequence.find(';', start), sequence.size());
      keep_regex("--focus-seq element", sequence.substr(start, end - start));
      start = end + 1;
    }
  }
  if (cli.Has("keep-dropped-frames")) {
    frames.drop_frames = false;
    Describe(&spec, "keep-dropped-frames", "");
  }
  if (cli.Has("collapse-recursion")) {
    frames.collapse_recursion = true;
    Describe(&spec, "collapse-recursion", "");
  }
  for (const std::string& derive : cli.GetAll("derive")) {
    spec.values.derive.push_back(ParseDerive(derive));
    Describe(&spec, "derive", derive);
  }
  if (cli.Has("types")) {
    spec.values.types = SplitList("--types", cli.Get<std::string>("types"));
    Describe(&spec, "types", cli.Get<std::string>("types"));
  }
  if (cli.Has("default-type")) {
    spec.values.default_type = cli.Get<std::string>("default-type");
    Describe(&spec, "default-type", spec.values.default_type);
  }
  return spec;
}

FilterResult ReadFiltered(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                          ProfileSink* sink, Reading reading) {
  FilterResult result;
  const bool as_reader = reading == Reading::kAsReport && spec.frames.drop_frames;
  if (!spec.active() && !as_reader) {
    inputs->Read(sink);
    return result;
  }
  std::unique_ptr<FilterPrepass> prepass;
  if (FilterPrepass::Needed(spec)) {
    prepass = std::make_unique<FilterPrepass>(spec);
    if (prepass->NeedsLabels()) {
      inputs->Read(prepass.get(), /*again=*/true);
    } else {
      FilterPrepass* spans = prepass.get();
      inputs->ScanSampleTimes([spans](uint64_t source, int64_t time, int64_t duration) {
        spans->AddTime(source, time, duration);
      });
    }
  }
  ProfileFilter filter(spec, prepass.get(), sink, inputs->name());
  inputs->Read(&filter);
  for (const std::string& hint : FrameNameHints(spec.frames, filter.defs())) Warn(program, hint);
  if (filter.samples_written() == 0 && filter.samples_read() > 0 && spec.active()) {
    Warn(program,
         "no sample is left after " + spec.description +
             (prepass != nullptr && spec.time.active() ? SpansText(prepass->spans()) : ""));
  }
  result.filtered = true;
  result.samples_before_frames = filter.samples_before_frames();
  result.values_before_frames = filter.values_before_frames();
  result.samples_with_value_before_frames = filter.samples_with_value_before_frames();
  return result;
}

void WriteFilteredText(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                       ByteSink* out) {
  CanonicalWriter writer(out);
  DiagnosticHandler throw_on_violation;
  CheckingSink checked(&writer, &throw_on_violation, "(filtered profile)");
  ReadFiltered(program, inputs, spec, &checked);
}

void ReadStackTotals(const char* program, ProfileInputs* inputs, const FilterSpec& spec,
                     StackTotals* totals, Totalling totalling) {
  FilterResult filtered;
  if (totalling == Totalling::kBesideTheReading && std::thread::hardware_concurrency() > 1) {
    ProduceOnThread(
        [&](ProfileSink* out) {
          filtered = ReadFiltered(program, inputs, spec, out, Reading::kAsReport);
        },
        totals);
  } else {
    filtered = ReadFiltered(program, inputs, spec, totals, Reading::kAsReport);
  }
  if (filtered.filtered) {
    totals->SetTotals(filtered.samples_before_frames, std::move(filtered.values_before_frames),
                      std::move(filtered.samples_with_value_before_frames));
  }
}

void AddDiffBaseOptions(CommandLine* cli, const std::string& group, const std::string& help) {
  cli->AddOptions(group)("diff-base", help, OptionValue(), "FILE")(
      "normalize", "with --diff-base: scale the base to this profile's total first");
  cli->AllowRepeated("diff-base");
}

void AddBaseTimeOption(CommandLine* cli) {
  cli->AddOptions("Base")("base-time",
                          "read the base with the window A..B instead of --time or --last; "
                          "without --diff-base the base is the profile itself (two windows of "
                          "one profile)",
                          OptionValue(), "A..B");
}

BaseSelection ParseBaseSelection(const char* program, const CommandLine& cli,
                                 const FilterSpec& spec) {
  BaseSelection base;
  const bool has_time = cli.Has("base-time");
  if (cli.Has("diff-base")) {
    base.paths = cli.GetAll("diff-base");
  } else if (has_time) {
    base.paths = cli.Inputs();
    base.profile_itself = true;
  }
  base.spec = spec;
  if (has_time) {
    const std::string window = cli.Get<std::string>("base-time");
    const TimeSpec time = ParseTimeWindow(window);
    base.spec.time.from = time.from;
    base.spec.time.to = time.to;
    base.spec.time.last_nanos.reset();
    base.spec.description += std::string(base.spec.description.empty() ? "" : " ") +
                             "(base: --base-time " + window + ")";
  }
  if (!base.active()) return base;
  // The same files, in the same order, read the same way: the same profile.
  const std::vector<std::string> inputs = cli.Inputs();
  bool same_files = base.paths.size() == inputs.size();
  for (size_t i = 0; same_files && i < inputs.size(); ++i) {
    std::error_code error;
    same_files =
        base.paths[i] == inputs[i] || std::filesystem::equivalent(base.paths[i], inputs[i], error);
  }
  const bool same_window =
      !has_time || (cli.Has("time") && !cli.Has("last") &&
                    cli.Get<std::string>("time") == cli.Get<std::string>("base-time"));
  if (same_files && same_window) {
    Warn(program,
         "the base is the profile itself with the same selection: every difference is 0 (to "
         "compare two windows of one profile, give the base's with --base-time A..B)");
  }
  return base;
}

void ReadBaseTotals(const char* program, const BaseSelection& selection, ProfileInputs* inputs,
                    const ReadOptions& read, StackTotals* base) {
  if (selection.profile_itself) {
    ReadStackTotals(program, inputs, selection.spec, base);
    return;
  }
  ProfileInputs base_inputs(selection.paths, read);
  ReadStackTotals(program, &base_inputs, selection.spec, base);
}

}  // namespace proftools
