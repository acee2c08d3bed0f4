#include "common/report/graph/pprof_units.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace proftools {
namespace {

struct UnitDef {
  const char* name;  // what pprof prints
  std::initializer_list<const char*> aliases;
  double factor;  // in the family's base unit
};

struct UnitFamily {
  std::initializer_list<UnitDef> units;
  UnitDef fallback;  // for a target unit of the family pprof does not know
};

const UnitFamily kMemory{{{"B", {"b", "byte"}, 1},
                          {"kB", {"kb", "kbyte", "kilobyte"}, 1024.0},
                          {"MB", {"mb", "mbyte", "megabyte"}, 1048576.0},
                          {"GB", {"gb", "gbyte", "gigabyte"}, 1073741824.0},
                          {"TB", {"tb", "tbyte", "terabyte"}, 1099511627776.0},
                          {"PB", {"pb", "pbyte", "petabyte"}, 1125899906842624.0}},
                         {"B", {}, 1}};
const UnitFamily kTime{{{"ns", {"ns", "nanosecond"}, 1},
                        {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
                        {"ms", {"ms", "millisecond"}, 1e6},
                        {"s", {"s", "sec", "second"}, 1e9},
                        {"hrs", {"hour", "hr"}, 3600e9}},
                       {"s", {}, 1e9}};
const UnitFamily kGcu{{{"n*GCU", {"nanogcu"}, 1e-9},
                       {"u*GCU", {"microgcu"}, 1e-6},
                       {"m*GCU", {"milligcu"}, 1e-3},
                       {"GCU", {"gcu"}, 1},
                       {"k*GCU", {"kilogcu"}, 1e3},
                       {"M*GCU", {"megagcu"}, 1e6},
                       {"G*GCU", {"gigagcu"}, 1e9},
                       {"T*GCU", {"teragcu"}, 1e12},
                       {"P*GCU", {"petagcu"}, 1e15}},
                      {"GCU", {}, 1}};

// pprof's sniffUnit: lower case, a plural "s" dropped from names longer than two characters.
const UnitDef* Sniff(const UnitFamily& family, std::string unit) {
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 2 && unit.back() == 's') unit.pop_back();
  for (const UnitDef& def : family.units) {
    for (const char* alias : def.aliases) {
      if (unit == alias) return &def;
    }
  }
  return nullptr;
}

bool Convert(const UnitFamily& family, int64_t value, const std::string& from,
             const std::string& to, PprofScaled* out) {
  const UnitDef* source = Sniff(family, from);
  if (source == nullptr) return false;
  const double base = static_cast<double>(value) * source->factor;
  if (to == "minimum" || to == "auto") {
    // The largest unit in which the value is at least 1.
    const UnitDef* best = nullptr;
    for (const UnitDef& def : family.units) {
      if ((best == nullptr || def.factor >= best->factor) && base / def.factor >= 1.0) best = &def;
    }
    const UnitDef& chosen = best != nullptr ? *best : family.fallback;
    *out = PprofScaled{base / chosen.factor, chosen.name};
    return true;
  }
  const UnitDef* target = Sniff(family, to);
  const UnitDef& chosen = target != nullptr ? *target : family.fallback;
  *out = PprofScaled{base / chosen.factor, chosen.name};
  return true;
}

}  // namespace

PprofScaled PprofScale(int64_t value, const std::string& from, const std::string& to) {
  if (value < 0 && value != INT64_MIN) {
    PprofScaled scaled = PprofScale(-value, from, to);
    scaled.value = -scaled.value;
    return scaled;
  }
  PprofScaled out;
  for (const UnitFamily* family : {&kMemory, &kTime, &kGcu}) {
    if (Convert(*family, value, from, to, &out)) return out;
  }
  out.value = static_cast<double>(value);
  if (to != "count" && to != "sample" && to != "unit" && to != "minimum" && to != "auto") {
    out.unit = to;
  }
  return out;
}

std::string PprofScaledLabel(int64_t value, const std::string& from, const std::string& to) {
  const PprofScaled scaled = PprofScale(value, from, to);
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", scaled.value);
  std::string number = text;
  if (number.size() > 3 && number.compare(number.size() - 3, 3, ".00") == 0) {
    number.resize(number.size() - 3);
  }
  if (number == "0" || number == "-0") return "0";
  return number + scaled.unit;
}

std::string PprofPercentage(int64_t value, int64_t total) {
  const double ratio =
      total != 0 ? std::fabs(static_cast<double>(value) / static_cast<double>(total)) * 100 : 0;
  if (ratio >= 99.95 && ratio <= 100.05) return "100%";
  char text[64];
  std::snprintf(text, sizeof text, ratio >= 1.0 ? "%.2f%%" : "%.2g%%", ratio);
  return text;
}

std::string PprofOutputUnit(int64_t min_value, int64_t max_value, const std::string& sample_unit) {
  if (min_value == 0) min_value = max_value;
  const std::string min_unit = PprofScale(min_value, sample_unit, "minimum").unit;
  const std::string max_unit = PprofScale(max_value, sample_unit, "minimum").unit;
  std::string unit = min_unit;
  if (min_unit != max_unit && static_cast<__int128>(min_value) * 100 < max_value) {
    // Values down to 0.01 of the larger unit read better than a mix.
    unit = PprofScale(min_value > INT64_MAX / 100 ? INT64_MAX : 100 * min_value, sample_unit,
                      "minimum")
               .unit;
  }
  return unit.empty() ? sample_unit : unit;
}

}  // namespace proftools
