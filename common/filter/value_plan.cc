#include "common/filter/value_plan.h"

#include <climits>
#include <cstdint>
#include <string>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"
#include "common/base/units.h"

namespace proftools {
namespace {

std::string TypeList(const std::vector<ValueType>& types) {
  std::string list;
  for (const ValueType& type : types) list += (list.empty() ? "" : ", ") + Printable(type.type);
  return list;
}

size_t FindType(const std::vector<ValueType>& types, const std::string& option,
                const std::string& context, const std::string& name) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].type == name) return i;
  }
  throw UsageError(option + ": " + Printable(context) + ": no value type " + Printable(name) +
                   " (the types are " + TypeList(types) + ")");
}

// The terms of `derive`'s expression, each a type of `types`: at each place the longest type
// name that ends where the expression ends or a `+` or `-` follows (so `cpu-clock` is one type
// when the profile has it), or a name in brackets (`[cpu-clock]`).
struct NamedTerm {
  bool negative;
  size_t index;
};
std::vector<NamedTerm> ResolveTerms(const DeriveSpec& derive, const std::vector<ValueType>& types) {
  const std::string& expr = derive.expression;
  std::vector<NamedTerm> terms;
  size_t at = 0;
  bool negative = false;
  while (true) {
    size_t found = types.size();
    size_t end = at;
    if (at < expr.size() && expr[at] == '[') {
      const size_t close = expr.find(']', at);
      if (close == std::string::npos) {
        throw UsageError("--derive: " + Printable(derive.text) + ": a '[' without its ']'");
      }
      found = FindType(types, "--derive", derive.text, expr.substr(at + 1, close - at - 1));
      end = close + 1;
    } else {
      for (size_t i = 0; i < types.size(); ++i) {
        const std::string& name = types[i].type;
        const size_t after = at + name.size();
        if (!name.empty() && expr.compare(at, name.size(), name) == 0 &&
            (after == expr.size() || expr[after] == '+' || expr[after] == '-') &&
            (found == types.size() || name.size() > types[found].type.size())) {
          found = i;
        }
      }
      if (found == types.size()) {
        size_t next = expr.find_first_of("+-", at);
        if (next == std::string::npos) next = expr.size();
        FindType(types, "--derive", derive.text, expr.substr(at, next - at));  // throws
      }
      end = at + types[found].type.size();
    }
    terms.push_back({negative, found});
    if (end == expr.size()) break;
    if (expr[end] != '+' && expr[end] != '-') {
      throw UsageError("--derive: " + Printable(derive.text) + ": expected + or - after " +
                       Printable(expr.substr(at, end - at)));
    }
    negative = expr[end] == '-';
    at = end + 1;
    if (at == expr.size()) {
      throw UsageError("--derive: " + Printable(derive.text) + ": expected a type name at its end");
    }
  }
  return terms;
}

}  // namespace

ValuePlan::ValuePlan(const ValueSpec& spec, const ProfileHeader& input, ProfileHeader* header) {
  std::vector<ValueType> work_types = input.types;
  for (const DeriveSpec& derive : spec.derive) {
    for (const ValueType& type : work_types) {
      if (type.type == derive.name) {
        throw UsageError("--derive: " + Printable(derive.text) +
                         ": the profile already has a type " + Printable(derive.name));
      }
    }
    // Terms in units of one dimension (microseconds and nanoseconds) are added in the finest.
    const std::vector<NamedTerm> named = ResolveTerms(derive, work_types);
    std::string unit = work_types[named[0].index].unit;
    for (const NamedTerm& term : named) {
      const std::string& term_unit = work_types[term.index].unit;
      if (!UnitsConvertible(term_unit, unit)) {
        throw UsageError("--derive: " + Printable(derive.text) + ": " +
                         Printable(work_types[named[0].index].type) + " is in " + Printable(unit) +
                         " but " + Printable(work_types[term.index].type) + " in " +
                         Printable(term_unit) + ", which cannot be converted");
      }
      unit = FinerUnit(unit, term_unit);
    }
    std::vector<Term> terms;
    for (const NamedTerm& term : named) {
      terms.push_back(
          {term.negative, term.index, ConversionFactor(work_types[term.index].unit, unit)});
    }
    derived_.push_back(std::move(terms));
    work_types.push_back({derive.name, unit});
    identity_ = false;
  }
  if (spec.types) {
    header->types.clear();
    for (const std::string& name : *spec.types) {
      const size_t index = FindType(work_types, "--types", name, name);
      for (size_t kept : output_) {
        if (kept == index) throw UsageError("--types: " + Printable(name) + " is listed twice");
      }
      output_.push_back(index);
      header->types.push_back(work_types[index]);
    }
    identity_ = false;
  } else {
    header->types = work_types;
    for (size_t i = 0; i < work_types.size(); ++i) output_.push_back(i);
  }
  if (!spec.default_type.empty()) {
    FindType(header->types, "--default-type", spec.default_type, spec.default_type);
    header->default_type = spec.default_type;
  } else if (header->TypeIndex(header->default_type) < 0) {
    header->default_type.clear();  // --types left it out: reports fall back to the last type
  }
}

void ValuePlan::Apply(const std::vector<int64_t>& in, std::vector<int64_t>* out) {
  work_.assign(in.begin(), in.end());
  for (const std::vector<Term>& terms : derived_) {
    int64_t value = 0;
    for (const Term& term : terms) {
      int64_t scaled = work_[term.index];
      if (term.factor != 1 && __builtin_mul_overflow(scaled, term.factor, &scaled)) {
        scaled = (work_[term.index] < 0) ? INT64_MIN : INT64_MAX;
      }
      if (term.negative) {
        SubtractSaturating(&value, scaled);
      } else {
        AddSaturating(&value, scaled);
      }
    }
    work_.push_back(value);
  }
  out->resize(output_.size());
  for (size_t i = 0; i < output_.size(); ++i) (*out)[i] = work_[output_[i]];
}

}  // namespace proftools
