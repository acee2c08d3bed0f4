// What a user asked prof-filter (or prof-text's filter options) to do, parsed and checked before
// any input is read. The parsers throw UsageError naming the option and the fault.
#ifndef PROFTOOLS_COMMON_FILTER_FILTER_SPEC_H_
#define PROFTOOLS_COMMON_FILTER_FILTER_SPEC_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/quantity.h"
#include "common/model/definitions.h"

namespace re2 {
class RE2;
}

namespace proftools {

// A kPercent bound's denominator: ppb are parts per 10^9.
inline constexpr int64_t kPartsPerBillion = 1000 * 1000 * 1000;

// One end of a --time window.
struct TimeBound {
  enum class Kind {
    kOpen,      // no bound on this side
    kOffset,    // nanoseconds after the start of each source (its first sample's TIME)
    kPercent,   // a fraction of each source's span: ppb parts per 10^9 (kPercent 10% = 10^8)
    kAbsolute,  // a TIME on the sources' clock
  };
  Kind kind = Kind::kOpen;
  int64_t nanos = 0;  // kOffset, kAbsolute
  int64_t ppb = 0;    // kPercent
};

struct TimeSpec {
  TimeBound from, to;                 // the window [from, to): to is exclusive
  std::optional<int64_t> last_nanos;  // --last D: the last D of each source
  bool keep_untimed = false;
  bool active() const {
    return from.kind != TimeBound::Kind::kOpen || to.kind != TimeBound::Kind::kOpen ||
           last_nanos.has_value();
  }
  // Whether resolving the window needs each source's first and last time (a first pass).
  bool NeedsSourceSpans() const;
};

// Parses --time A..B. Throws UsageError("--time: ...").
TimeSpec ParseTimeWindow(std::string_view text);

struct CoalesceSpec {
  bool enabled = false;
  std::optional<int64_t> gap_nanos;   // --coalesce=GAP; default: see Coalescer
  std::vector<std::string> split_on;  // --split-on TYPE (value type names)
};

// One --label-focus or --label-ignore KEY=SPEC.
struct LabelMatch {
  std::string text;  // as given, for messages and the meta record
  std::string key;
  bool numeric = false;
  // Numeric: an inclusive range, in the unit kind's base when `kind` is not kNone.
  int64_t low = INT64_MIN, high = INT64_MAX;
  UnitKind kind = UnitKind::kNone;
  std::shared_ptr<re2::RE2> regex;  // string values: matched anywhere (pprof's -tagfocus)
};

// Parses KEY=SPEC for `option` (named in errors). SPEC is a number or an inclusive range
// LOW..HIGH (either end may be left out) with optional units, or else a regular expression.
LabelMatch ParseLabelMatch(const std::string& option, std::string_view text);

struct LabelSpec {
  std::vector<LabelMatch> focus;                 // a sample must match every one
  std::vector<LabelMatch> ignore;                // a sample matching any is dropped
  std::optional<std::vector<std::string>> keep;  // --keep-labels: only these keys
  std::vector<std::string> drop;                 // --drop-labels
  bool active() const { return !focus.empty() || !ignore.empty() || keep || !drop.empty(); }
};

// --derive NAME=T1+T2-T3...: the terms are found in the expression once the profile's types
// are known (ValuePlan), so that a type whose name holds `-` or `+` (`cpu-clock`) is one term;
// `[NAME]` spells a type out where two readings are possible.
struct DeriveSpec {
  std::string text;
  std::string name;
  std::string expression;  // after `=`
};

DeriveSpec ParseDerive(std::string_view text);

struct ValueSpec {
  std::vector<DeriveSpec> derive;
  std::optional<std::vector<std::string>> types;  // --types: keep these, in this order
  std::string default_type;                       // --default-type
  bool active() const { return !derive.empty() || types || !default_type.empty(); }
};

// Splits "a,b,c" (no empty items; throws UsageError naming `option`).
std::vector<std::string> SplitList(const std::string& option, std::string_view text);

// pprof's frame filters. Each option may be repeated: its expressions combine as alternatives
// (`--focus A --focus B` is `--focus 'A|B'`), since pprof takes one expression per option.
struct FrameSpec {
  std::shared_ptr<re2::RE2> focus, ignore, hide, show, show_from, prune_from;  // null: not given
  // --focus-seq 'A;B;C', in the order given: each a sequence of expressions, root to leaf.
  std::vector<std::vector<std::shared_ptr<re2::RE2>>> focus_seq;
  // The patterns given as regular expressions, with their option ("--focus"): a pattern that is
  // a frame's name but does not match it as an expression gets a hint (FrameNameHints).
  std::vector<std::pair<std::string, std::string>> regex_patterns;
  bool collapse_recursion = false;
  // Apply the profile's drop_frames/keep_frames (off with --keep-dropped-frames).
  bool drop_frames = true;
  bool active() const {
    return focus || ignore || hide || show || show_from || prune_from || !focus_seq.empty() ||
           collapse_recursion;
  }
};

// A frame pattern is a regular expression unless it is literal: `=NAME`, or any pattern with
// --literal (`literal`). A literal NAME is a frame's whole name as the reports print it (with
// --sequences' and --peek's escapes `\x3b` for ';' and `\\` for '\' undone), since C++ names
// are full of regular expression syntax: `f(int*)`, `operator[]`.
bool IsLiteralPattern(std::string_view pattern, bool literal);
// The name a literal pattern stands for.
std::string LiteralFrameName(std::string_view pattern);
// The regular expression of a pattern: itself, or a literal's name quoted and anchored.
std::string FramePatternRegex(std::string_view pattern, bool literal);

// Compiles the patterns given to `option` (repeated: as alternatives). Throws UsageError
// naming the option and the expression for a bad one.
std::shared_ptr<re2::RE2> CompileFrameRegex(const std::string& option,
                                            const std::vector<std::string>& patterns,
                                            bool literal = false);

// Parses --focus-seq's 'A;B;C' (no empty element), each element a pattern. Throws UsageError.
std::vector<std::shared_ptr<re2::RE2>> ParseFocusSequence(std::string_view text,
                                                          bool literal = false);

// For each pattern of `frames` given as a regular expression that is the name of a function of
// `defs` (or, unescaped, as --sequences prints it) but does not match that name: a message
// saying so and how to match it literally. A name copied from a report then does not fail
// silently.
std::vector<std::string> FrameNameHints(const FrameSpec& frames, const Definitions& defs);

struct FilterSpec {
  TimeSpec time;
  CoalesceSpec coalesce;
  LabelSpec labels;
  ValueSpec values;
  FrameSpec frames;
  // The options as the user gave them, in a canonical order, for the `meta` record that says what
  // was applied (formats/prof-text.md §9).
  std::string description;
  // The same options one by one as `option=value` (`option` alone when it takes none): the
  // "Active filters" of prof-text --dot's legend, as pprof lists its own.
  std::vector<std::string> options;
  bool active() const {
    return time.active() || coalesce.enabled || labels.active() || values.active() ||
           frames.active();
  }
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_FILTER_SPEC_H_
