// A sink stage that passes on a copy of each sample (renumbered, say) lends the copy its labels
// instead of copying them: numbered label sets (Sample::labels_id) are kept by id modulo 64,
// each copied once, and swapped into the copy while it is passed on. A perf recording's
// threads take turns sample by sample: copying their labels' strings at each turn cost a
// canonical writer more than the rest of a sample.
#ifndef PROFTOOLS_COMMON_MODEL_LENT_LABELS_H_
#define PROFTOOLS_COMMON_MODEL_LENT_LABELS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/model/model.h"

namespace proftools {

class LentLabels {
 public:
  // Gives `out` the labels (and labels_id) of `sample` while pass() runs.
  template <typename Pass>
  void Lend(const Sample& sample, Sample* out, Pass pass) {
    out->labels_id = sample.labels_id;
    if (sample.labels_id == 0) {
      out->labels.assign(sample.labels.begin(), sample.labels.end());
      pass();
      return;
    }
    LabelSet& known = sets_[sample.labels_id % kSets];
    if (known.id != sample.labels_id) {
      known.id = sample.labels_id;
      known.labels.assign(sample.labels.begin(), sample.labels.end());
    }
    out->labels.swap(known.labels);
    pass();
    out->labels.swap(known.labels);
  }

 private:
  static constexpr size_t kSets = 64;
  struct LabelSet {
    uint64_t id = 0;
    std::vector<Label> labels;
  };
  std::vector<LabelSet> sets_ = std::vector<LabelSet>(kSets);
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_LENT_LABELS_H_
