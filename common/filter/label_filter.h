// Label filters (pprof's -tagfocus, -tagignore, -tagshow, -taghide): which samples pass, and
// which of their labels are kept.
#ifndef PROFTOOLS_COMMON_FILTER_LABEL_FILTER_H_
#define PROFTOOLS_COMMON_FILTER_LABEL_FILTER_H_

#include "common/filter/filter_spec.h"
#include "common/model/model.h"

namespace proftools {

// True when one of the sample's labels with the match's key matches: a numeric label in the
// range (converted to the range's unit kind when both have a unit: bytes, nanoseconds), or a
// string label the regular expression matches anywhere.
bool MatchesLabel(const LabelMatch& match, const Sample& sample);

class LabelFilter {
 public:
  explicit LabelFilter(const LabelSpec& spec) : spec_(spec) {}
  // Every --label-focus matches and no --label-ignore does.
  bool Keep(const Sample& sample) const;
  // Applies --keep-labels and --drop-labels.
  void RewriteLabels(Sample* sample) const;

 private:
  const LabelSpec& spec_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_LABEL_FILTER_H_
