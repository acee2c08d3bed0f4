#include "common/model/record.h"

#include <array>
#include <cstdint>

namespace proftools {
namespace {

struct KindName {
  RecordKind kind;
  const char* name;
};

constexpr KindName kKindNames[] = {
    {RecordKind::kMeta, "meta"},
    {RecordKind::kComment, "comment"},
    {RecordKind::kTime, "time"},
    {RecordKind::kDuration, "duration"},
    {RecordKind::kPeriod, "period"},
    {RecordKind::kDocUrl, "doc_url"},
    {RecordKind::kDropFrames, "drop_frames"},
    {RecordKind::kKeepFrames, "keep_frames"},
    {RecordKind::kSource, "source"},
    {RecordKind::kType, "type"},
    {RecordKind::kDefaultType, "default_type"},
    {RecordKind::kMapping, "mapping"},
    {RecordKind::kFunction, "function"},
    {RecordKind::kLocation, "location"},
    {RecordKind::kStack, "stack"},
    {RecordKind::kSample, "sample"},
};

}  // namespace

const char* RecordKindName(RecordKind kind) {
  // A direct lookup: the checker names the kind of every definition it checks.
  static const auto by_kind = [] {
    std::array<const char*, 256> names;
    names.fill("?");
    for (const KindName& entry : kKindNames) names[static_cast<uint8_t>(entry.kind)] = entry.name;
    return names;
  }();
  const auto index = static_cast<size_t>(kind);
  return index < by_kind.size() ? by_kind[index] : "?";
}

bool RecordKindFromName(std::string_view name, RecordKind* kind) {
  // "sample" is by far the most frequent record; test it first.
  if (name == "sample") {
    *kind = RecordKind::kSample;
    return true;
  }
  for (const KindName& entry : kKindNames) {
    if (name == entry.name) {
      *kind = entry.kind;
      return true;
    }
  }
  return false;
}

bool IsPreamble(RecordKind kind) {
  return kind < RecordKind::kMapping;
}

void ApplyPreambleRecord(const Record& record, ProfileHeader* header) {
  switch (record.kind) {
    case RecordKind::kMeta:
      header->meta.push_back(record.meta);
      break;
    case RecordKind::kComment:
      header->comments.push_back(record.text);
      break;
    case RecordKind::kTime:
      header->time_nanos = record.number;
      break;
    case RecordKind::kDuration:
      header->duration_nanos = record.number;
      break;
    case RecordKind::kPeriod:
      header->period = record.period;
      break;
    case RecordKind::kDocUrl:
      header->doc_url = record.text;
      break;
    case RecordKind::kDropFrames:
      header->drop_frames = record.text;
      break;
    case RecordKind::kKeepFrames:
      header->keep_frames = record.text;
      break;
    case RecordKind::kSource:
      header->sources.push_back(record.source);
      break;
    case RecordKind::kType:
      header->types.push_back(record.type);
      break;
    case RecordKind::kDefaultType:
      header->default_type = record.text;
      break;
    default:
      break;
  }
}

}  // namespace proftools
