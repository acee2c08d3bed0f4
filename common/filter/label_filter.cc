#include "common/filter/label_filter.h"

#include <re2/re2.h>

#include <algorithm>

namespace proftools {
namespace {

bool InRange(const LabelMatch& match, const Label& label) {
  int64_t value = label.num;
  if (match.kind != UnitKind::kNone && !label.unit.empty()) {
    int64_t factor;
    if (UnitKindOf(label.unit, &factor) != match.kind) return false;
    if (__builtin_mul_overflow(value, factor, &value))
      value = label.num > 0 ? INT64_MAX : INT64_MIN;
  }
  return match.low <= value && value <= match.high;
}

bool Listed(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

bool MatchesLabel(const LabelMatch& match, const Sample& sample) {
  for (const Label& label : sample.labels) {
    if (label.key != match.key) continue;
    if (match.numeric ? label.is_num && InRange(match, label)
                      : !label.is_num && re2::RE2::PartialMatch(label.str, *match.regex)) {
      return true;
    }
  }
  return false;
}

bool LabelFilter::Keep(const Sample& sample) const {
  for (const LabelMatch& match : spec_.focus) {
    if (!MatchesLabel(match, sample)) return false;
  }
  for (const LabelMatch& match : spec_.ignore) {
    if (MatchesLabel(match, sample)) return false;
  }
  return true;
}

void LabelFilter::RewriteLabels(Sample* sample) const {
  if (!spec_.keep && spec_.drop.empty()) return;
  auto gone = [&](const Label& label) {
    return (spec_.keep && !Listed(*spec_.keep, label.key)) || Listed(spec_.drop, label.key);
  };
  sample->labels.erase(std::remove_if(sample->labels.begin(), sample->labels.end(), gone),
                       sample->labels.end());
}

}  // namespace proftools
