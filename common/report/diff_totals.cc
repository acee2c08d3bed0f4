#include "common/report/diff_totals.h"
#include "common/base/text_syntax.h"

#include "common/base/units.h"

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

// The base's type for each of the profile's types (index -1: none), converted as MatchBaseType.
std::vector<BaseType> MatchTypes(const ProfileHeader& profile, const ProfileHeader& base,
                                 int value_index) {
  std::vector<BaseType> match;
  for (size_t i = 0; i < profile.types.size(); ++i) {
    if (static_cast<int>(i) == value_index) {
      match.push_back(MatchBaseType(profile, base, value_index));
      continue;
    }
    try {
      match.push_back(MatchBaseType(profile, base, static_cast<int>(i)));
    } catch (const UsageError&) {
      match.push_back(BaseType{});  // a type not reported needs no base
    }
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

BaseType MatchBaseType(const ProfileHeader& profile, const ProfileHeader& base, int value_index) {
  const ValueType& type = profile.types[value_index];
  const int b = base.TypeIndex(type.type);
  if (b < 0) {
    throw UsageError("--diff-base: the base has no type " + Printable(type.type) + " in " +
                     type.unit);
  }
  const std::string& base_unit = base.types[b].unit;
  if (base_unit == type.unit) return BaseType{b, 1.0};
  if (!UnitsConvertible(base_unit, type.unit)) {
    throw UsageError("--diff-base: the base has type " + Printable(type.type) + " in " + base_unit +
                     ", which does not convert to " + type.unit);
  }
  // Exact integer factors: one unit is the other times a power of 1000 or 1024 (or 60...).
  const double scale = FinerUnit(base_unit, type.unit) == type.unit
                           ? static_cast<double>(ConversionFactor(base_unit, type.unit))
                           : 1.0 / static_cast<double>(ConversionFactor(type.unit, base_unit));
  return BaseType{b, scale};
}

void DiffStackTotals(const StackTotals& profile, const StackTotals& base, int value_index,
                     bool normalize, StackTotals* out) {
  const ProfileHeader& header = profile.header();
  const std::vector<BaseType> match = MatchTypes(header, base.header(), value_index);
  const size_t types = header.types.size();
  std::vector<double> scale(types, 1.0);
  std::vector<int64_t> base_totals(types, 0);
  for (size_t i = 0; i < types; ++i) {
    if (match[i].index < 0) continue;
    const int64_t base_total = base.total_values()[match[i].index];
    scale[i] = match[i].scale;  // into the profile's unit
    base_totals[i] = Scaled(base_total, scale[i]);
    if (normalize && base_total != 0) {
      scale[i] = static_cast<double>(profile.total_values()[i]) / static_cast<double>(base_total);
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
    out->AddEntry(stack, entry.samples, entry.values, zeros, profile.labels(entry));
  }
  std::vector<int64_t> negated(types), values(types);
  for (const StackTotals::Entry& entry : base.entries()) {
    for (size_t i = 0; i < types; ++i) {
      values[i] = match[i].index < 0 ? 0 : Scaled(entry.values[match[i].index], scale[i]);
      negated[i] = values[i] == INT64_MIN ? INT64_MAX : -values[i];
    }
    base_stacks.Find(entry.stack_id, &stack);
    out->AddEntry(stack, entry.samples, negated, values, base.labels(entry));
  }
  out->SetTotals(base.total_records(), base_totals);
}

}  // namespace proftools
