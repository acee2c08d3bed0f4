#include "common/chrome/v8_trace_profiles.h"

#include <algorithm>

namespace proftools {

void V8TraceProfiles::Add(const std::string& event, int64_t pid, std::optional<int64_t> tid,
                          const std::string& id, int64_t ts_ns, V8Profile* nodes,
                          V8ProfileFields* data, uint64_t byte) {
  const std::string key =
      event == "CpuProfile" ? "CpuProfile#" + std::to_string(++cpu_profile_events_) : id;
  const auto inserted = index_.emplace(std::make_pair(pid, key), profiles_.size());
  if (inserted.second) {
    profiles_.push_back(std::make_unique<Profile>(name_));
    profiles_.back()->pid = pid;
  }
  Profile& profile = *profiles_[inserted.first->second];
  profile.profile.TakeNodes(nodes);
  if (event != "ProfileChunk") profile.tid = tid;  // chunks carry the sampler thread's tid
  if (data->start_ns) profile.start_ns = data->start_ns;
  if (data->end_ns) profile.end_ns = data->end_ns;
  if (data->samples || data->deltas_ns) {
    Chunk chunk;
    chunk.ts = ts_ns;
    chunk.byte = data->samples ? data->samples_byte : byte;
    if (data->samples) chunk.samples = std::move(*data->samples);
    if (data->deltas_ns) chunk.deltas_ns = std::move(*data->deltas_ns);
    if (!profile.start_ns && profile.chunks.empty()) profile.start_ns = ts_ns;
    profile.chunks.push_back(std::move(chunk));
  }
}

uint64_t V8TraceProfiles::Finish() {
  uint64_t samples = 0;
  for (auto& p : profiles_) {
    Profile& profile = *p;
    // Chunks in time order, equal times as given.
    std::stable_sort(profile.chunks.begin(), profile.chunks.end(),
                     [](const Chunk& a, const Chunk& b) { return a.ts < b.ts; });
    for (Chunk& chunk : profile.chunks) {
      profile.profile.AddSamples(std::move(chunk.samples), std::move(chunk.deltas_ns), chunk.byte);
    }
    profile.chunks.clear();
    if (profile.start_ns) profile.profile.SetStart(*profile.start_ns);
    if (profile.end_ns) profile.profile.SetEnd(*profile.end_ns);
    samples += profile.profile.sample_count();
  }
  return samples;
}

void V8TraceProfiles::Convert(
    Interner* interner, uint64_t source_id,
    const std::function<std::vector<Label>(int64_t, std::optional<int64_t>)>& labels_of,
    ProfileSink* sink, const ReadContext& context) {
  V8Profile::Unresolved unresolved;
  uint64_t sent = 0, total = 0;
  for (auto& p : profiles_) {
    sent += p->profile.Convert(interner, source_id, labels_of(p->pid, p->tid), sink, &unresolved);
    total += p->profile.sample_count();
  }
  V8Profile::Report(unresolved, sent, total, name_, context);
}

}  // namespace proftools
