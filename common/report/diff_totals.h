// --diff-base (pprof's -diff_base): a profile's stack totals minus those of a base profile, for
// every report of prof-text.
#ifndef PROFTOOLS_COMMON_REPORT_DIFF_TOTALS_H_
#define PROFTOOLS_COMMON_REPORT_DIFF_TOTALS_H_

#include "common/report/stack_totals.h"

namespace proftools {

// The base's value type for the profile's type `value_index`: the one of the same name, in the
// same unit or in one that converts to it (milliseconds and nanoseconds, KiB and bytes: pprof
// scales such profiles and compares them), and the factor that expresses its values in the
// profile's unit. UsageError naming both units when the base has no such type.
struct BaseType {
  int index = -1;
  double scale = 1.0;
};
BaseType MatchBaseType(const ProfileHeader& profile, const ProfileHeader& base, int value_index);

// Fills the empty `out` with the definitions of `profile` and `base`, interned by content so that
// a stack both hold is one entry, and one entry per stack whose values are the profile's minus
// the base's (base_values: the base's). The header is the profile's; the totals are the base's,
// since pprof gives a difference's percentages of the base total. A base type is matched to the
// profile's type of the same name and unit; the base must have type `value_index` (the one
// reported), else UsageError; a base measured in another unit of the same dimension is converted
// to the profile's (MatchBaseType). With `normalize`, the base is first scaled so that its total of
// each type is the profile's (rounded per stack): a difference of shape, not of size.
void DiffStackTotals(const StackTotals& profile, const StackTotals& base, int value_index,
                     bool normalize, StackTotals* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_DIFF_TOTALS_H_
