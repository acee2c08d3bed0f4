#include "common/report/diff_totals.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/base/id_table.h"
#include "common/base/saturating.h"
#include "common/model/interner.h"

namespace proftools {
namespace {

// Copies one profile's definitions into the interner; returns its stack ids -> interned ids.
IdMap InternDefinitions(const Definitions& defs, Interner* interner) {
  IdMap mappings, functions, locations, stacks;
  uint64_t ignored;
  for (const Mapping& m : defs.mappings.items()) {
    mappings.Insert(m.id, interner->Mapping(m), &ignored);
  }
  for (const Function& f : defs.functions.items()) {
    functions.Insert(f.id, interner->Function(f), &ignored);
  }
  Location copy;
  for (const Location& l : defs.locations.items()) {
    copy = l;
    if (l.mapping_id != 0) mappings.Find(l.mapping_id, &copy.mapping_id);
    for (Line& line : copy.lines) functions.Find(line.function_id, &line.function_id);
    locations.Insert(l.id, interner->Location(copy), &ignored);
  }
  std::vector<uint64_t> ids;
  for (const Stack& s : defs.stacks.items()) {
    ids.clear();
    for (uint64_t id : s.location_ids) {
      uint64_t to = 0;
      locations.Find(id, &to);
      ids.push_back(to);
    }
    stacks.Insert(s.id, interner->Stack(ids), &ignored);
  }
  return stacks;
}

// For each profile type, the base's type of the same name and unit, or -1.
std::vector<int> MatchTypes(const ProfileHeader& profile, const ProfileHeader& base,
                            int value_index) {
  std::vector<int> match;
  for (const ValueType& type : profile.types) {
    const int b = base.TypeIndex(type.type);
    match.push_back(b >= 0 && base.types[b].unit == type.unit ? b : -1);
  }
  if (match[value_index] < 0) {
    const ValueType& type = profile.types[value_index];
    const int b = base.TypeIndex(type.type);
    throw UsageError("--diff-base: the base has no type '" + type.type + "' in " + type.unit +
                     (b >= 0 ? " (it has it in " + base.types[b].unit + ")" : ""));
  }
  return match;
}

int64_t Scaled(int64_t value, double scale) {
  const double scaled = std::round(static_cast<double>(value) * scale);
  if (scaled >= 9.2e18) return INT64_MAX;
  if (scaled <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(scaled);
}

}  // namespace

void DiffStackTotals(const StackTotals& profile, const StackTotals& base, int value_index,
                     bool normalize, StackTotals* out) {
  const ProfileHeader& header = profile.header();
  const std::vector<int> match = MatchTypes(header, base.header(), value_index);
  const size_t types = header.types.size();
  std::vector<double> scale(types, 1.0);
  std::vector<int64_t> base_totals(types, 0);
  for (size_t i = 0; i < types; ++i) {
    if (match[i] < 0) continue;
    base_totals[i] = base.total_values()[match[i]];
    if (normalize && base_totals[i] != 0) {
      scale[i] = static_cast<double>(profile.total_values()[i]) / base_totals[i];
      base_totals[i] = profile.total_values()[i];
    }
  }

  out->OnHeader(header);
  Interner interner(out);
  const IdMap profile_stacks = InternDefinitions(profile.defs(), &interner);
  const IdMap base_stacks = InternDefinitions(base.defs(), &interner);
  const std::vector<int64_t> zeros(types, 0);
  uint64_t stack = 0;
  for (const StackTotals::Entry& entry : profile.entries()) {
    profile_stacks.Find(entry.stack_id, &stack);
    out->AddEntry(stack, entry.samples, entry.values, zeros, entry.labels);
  }
  std::vector<int64_t> negated(types), values(types);
  for (const StackTotals::Entry& entry : base.entries()) {
    for (size_t i = 0; i < types; ++i) {
      values[i] = match[i] < 0 ? 0 : Scaled(entry.values[match[i]], scale[i]);
      negated[i] = values[i] == INT64_MIN ? INT64_MAX : -values[i];
    }
    base_stacks.Find(entry.stack_id, &stack);
    out->AddEntry(stack, entry.samples, negated, values, entry.labels);
  }
  out->SetTotals(base.total_samples(), base_totals);
}

}  // namespace proftools
