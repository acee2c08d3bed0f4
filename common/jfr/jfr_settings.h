// The sampling periods a recording states: its jdk.ActiveSetting events (one per setting of
// each event type, written as each chunk begins) with the name "period" and a value such as
// "10 ms" or "20 ms", which weigh execution samples in nanoseconds.
#ifndef PROFTOOLS_COMMON_JFR_JFR_SETTINGS_H_
#define PROFTOOLS_COMMON_JFR_JFR_SETTINGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/jfr/jfr_metadata.h"
#include "common/jfr/jfr_values.h"

namespace proftools {

class JfrPeriods {
 public:
  // Takes in one jdk.ActiveSetting event (decoded by the chunk's metadata).
  void Read(const JfrValue& setting, const JfrMetadata& metadata, const JfrPools& pools);
  // Whether `setting`'s name or value is a reference into the pools (Read needs them then).
  static bool NeedsPools(const JfrValue& setting, const JfrMetadata& metadata);
  // The period of `event` in nanoseconds, or null when not stated.
  const int64_t* Find(const std::string& event) const;
  // What `later` states replaces what this says (settings carry over from chunk to chunk).
  void Update(const JfrPeriods& later);

 private:
  std::map<std::string, int64_t> periods_;
};

// "10 ms", "1 s", "20000 us", "5ns" in nanoseconds; nullopt for anything else ("everyChunk").
std::optional<int64_t> ParseJfrTimespan(std::string_view text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_SETTINGS_H_
