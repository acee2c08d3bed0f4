// --derive, --types and --default-type: the value types of the filtered profile, and how each
// sample's values are computed from the input's.
#ifndef PROFTOOLS_COMMON_FILTER_VALUE_PLAN_H_
#define PROFTOOLS_COMMON_FILTER_VALUE_PLAN_H_

#include <cstdint>
#include <vector>

#include "common/filter/filter_spec.h"
#include "common/model/model.h"

namespace proftools {

class ValuePlan {
 public:
  // Sets header->types and header->default_type from `input` and `spec`. A derived type is
  // appended after the input's types (and may use derived types before it); all its terms must
  // have one unit, which it takes. Throws UsageError naming the option for an unknown type, a
  // unit mismatch or a name already taken.
  ValuePlan(const ValueSpec& spec, const ProfileHeader& input, ProfileHeader* header);

  bool identity() const { return identity_; }
  // The output values of a sample whose input values are `in`.
  void Apply(const std::vector<int64_t>& in, std::vector<int64_t>* out);

 private:
  struct Term {
    bool negative;
    size_t index;        // into the working values: input values, then derived ones
    int64_t factor = 1;  // into the derived type's unit (the finest of its terms')
  };
  std::vector<std::vector<Term>> derived_;  // one list of terms per derived type
  std::vector<size_t> output_;              // working value index of each output type
  std::vector<int64_t> work_;
  bool identity_ = true;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FILTER_VALUE_PLAN_H_
