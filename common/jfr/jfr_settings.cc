#include "common/jfr/jfr_settings.h"

namespace proftools {

std::optional<int64_t> ParseJfrTimespan(std::string_view text) {
  size_t i = 0;
  uint64_t number = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (number > 1'000'000'000'000ULL) return std::nullopt;
    number = number * 10 + static_cast<uint64_t>(text[i++] - '0');
  }
  if (i == 0) return std::nullopt;
  while (i < text.size() && text[i] == ' ') ++i;
  const std::string_view unit = text.substr(i);
  static const std::pair<std::string_view, uint64_t> kUnits[] = {
      {"ns", 1},          {"us", 1000},         {"ms", 1000000},       {"s", 1000000000},
      {"m", 60000000000}, {"h", 3600000000000}, {"d", 86400000000000},
  };
  for (const auto& [name, scale] : kUnits) {
    if (unit == name) {
      if (number > static_cast<uint64_t>(INT64_MAX) / scale) return std::nullopt;
      return static_cast<int64_t>(number * scale);
    }
  }
  return std::nullopt;
}

void JfrPeriods::Read(const JfrValue& setting, const JfrMetadata& metadata, const JfrPools& pools) {
  const JfrValue* id = JfrFieldOf(setting, metadata, "id");
  const JfrValue* name = JfrFieldOf(setting, metadata, "name");
  const JfrValue* value = JfrFieldOf(setting, metadata, "value");
  if (id == nullptr || name == nullptr || value == nullptr || id->tag != JfrValue::kInt) return;
  if (JfrText(*name, metadata, pools) != "period") return;
  const JfrType* event = metadata.Find(static_cast<uint64_t>(id->i));
  if (event == nullptr) return;
  const std::optional<int64_t> nanos = ParseJfrTimespan(JfrText(*value, metadata, pools));
  if (nanos && *nanos > 0) periods_[event->name] = *nanos;
}

bool JfrPeriods::NeedsPools(const JfrValue& setting, const JfrMetadata& metadata) {
  for (const char* field : {"name", "value"}) {
    const JfrValue* v = JfrFieldOf(setting, metadata, field);
    if (v != nullptr && v->tag == JfrValue::kRef) return true;
  }
  return false;
}

const int64_t* JfrPeriods::Find(const std::string& event) const {
  const auto it = periods_.find(event);
  return it == periods_.end() ? nullptr : &it->second;
}

void JfrPeriods::Update(const JfrPeriods& later) {
  for (const auto& [event, period] : later.periods_) periods_[event] = period;
}

}  // namespace proftools
