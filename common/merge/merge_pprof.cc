#include "common/merge/merge_pprof.h"

#include "common/base/diagnostics.h"
#include "common/model/canonical_order.h"
#include "common/model/checker.h"
#include "common/pprof/pprof_writer.h"

namespace proftools {

void FinishAsPprof(Merger* merger, ByteSink* out) {
  if (!merger->aggregates()) {
    throw ProfError("(merged profile)", "internal error: a merge to pprof must aggregate");
  }
  PprofWriteOptions options;
  options.unique_samples = true;  // aggregated: each (source, stack, labels) once
  PprofWriter writer(out, options);
  CanonicalOrder order(&writer);
  DiagnosticHandler throw_on_violation;  // a violation here is a bug of this program
  CheckingSink checked(&order, &throw_on_violation, "(merged profile)");
  merger->Finish(&checked);
}

}  // namespace proftools
