#include "common/report/reports.h"

#include "common/base/diagnostics.h"
#include "common/base/text_syntax.h"

namespace proftools {

int ResolveValueIndex(const ProfileHeader& header, const std::string& name) {
  if (header.types.empty()) throw UsageError("the profile declares no value type");
  if (name.empty()) return header.DefaultTypeIndex();
  const int index = header.TypeIndex(name);
  if (index >= 0) return index;
  // pprof's -sample_index takes an index as well as a name.
  if (name.find_first_not_of("0123456789") == std::string::npos && name.size() < 10 &&
      std::stoul(name) < header.types.size()) {
    return static_cast<int>(std::stoul(name));
  }
  std::string known;
  for (const ValueType& type : header.types) known += (known.empty() ? "" : ", ") + type.type;
  throw UsageError("--value " + Printable(name) +
                   ": the profile has no such type (it has: " + known +
                   "; or give an index from 0 to " + std::to_string(header.types.size() - 1) + ")");
}

std::string ReportHeader(const StackTotals& totals, const ReportOptions& options,
                         const std::string& accounting) {
  const ValueType& type = totals.header().types[options.value_index];
  std::string out = "Type: " + type.type + "/" + type.unit + "\n";
  if (!options.filter_description.empty()) {
    out += "Active filters:\n   " + options.filter_description + "\n";
  }
  out += accounting + "\n";
  return out;
}

}  // namespace proftools
