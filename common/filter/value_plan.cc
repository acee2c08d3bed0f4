#include "common/filter/value_plan.h"

#include <string>

#include "common/base/diagnostics.h"
#include "common/base/saturating.h"
#include "common/base/text_syntax.h"

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
    std::vector<Term> terms;
    std::string unit;
    for (size_t i = 0; i < derive.terms.size(); ++i) {
      const size_t index = FindType(work_types, "--derive", derive.text, derive.terms[i].type);
      if (i == 0) {
        unit = work_types[index].unit;
      } else if (work_types[index].unit != unit) {
        throw UsageError("--derive: " + Printable(derive.text) + ": " +
                         Printable(derive.terms[0].type) + " is in " + Printable(unit) + " but " +
                         Printable(derive.terms[i].type) + " in " +
                         Printable(work_types[index].unit) + ": terms must have one unit");
      }
      terms.push_back({derive.terms[i].negative, index});
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
      if (term.negative) {
        SubtractSaturating(&value, work_[term.index]);
      } else {
        AddSaturating(&value, work_[term.index]);
      }
    }
    work_.push_back(value);
  }
  out->resize(output_.size());
  for (size_t i = 0; i < output_.size(); ++i) (*out)[i] = work_[output_[i]];
}

}  // namespace proftools
