// Writes a profile into a new SQLite database in rsprof's layout (rsprof_reader.h: its storage
// design's tables and indexes), so that rsprof's own queries (top CPU, top heap, time series)
// answer with the numbers prof-text gives. What the layout keeps of a profile:
// - the leaf frame of each stack only: rsprof records the sampled address, so a row is per
//   leaf location (its address; a location without one, or whose address another symbol
//   has, gets an address of its own counting down from 2^64-1, as rsprof's INTEGER holds it);
//   its innermost line gives symbols' function, file and line;
// - cpu_samples.count from the type `samples` (else the first type of unit count), and
//   heap_events from the types alloc_space and free_space (bytes): other types are dropped;
// - samples summed per checkpoint: checkpoint N covers [start + (N-1) I, start + N I) of the
//   interval I, its timestamp_ms its end as rsprof writes it; start is the profile's time,
//   else the first sample's (sample clocks need not be the epoch's: perf's counts from boot);
//   a sample counts in the checkpoint of its start, an untimed one in the first;
// - meta: what an rsprof recording read by proftools carried (rsprof.KEY), else what the
//   profile says (start_time from its time or its one source's, pid and process_name from the
//   first sample's labels, exe_path from the first mapping, cpu_freq_hz from a cpu
//   nanoseconds period); an unsymbolised address's file is its mapping's.
// What is dropped is said in warnings.
#ifndef PROFTOOLS_COMMON_SQLITE_RSPROF_WRITER_H_
#define PROFTOOLS_COMMON_SQLITE_RSPROF_WRITER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/model/sink.h"
#include "common/sqlite/sqlite_db.h"

namespace proftools {

class RsprofWriter : public ProfileSink {
 public:
  // `db` is a new, empty database; nothing is committed before OnEnd. `warn` gets what the
  // layout cannot keep.
  RsprofWriter(SqliteDb* db, int64_t checkpoint_millis,
               std::function<void(const std::string&)> warn);

  void OnHeader(const ProfileHeader& header) override;
  void OnMapping(const Mapping& mapping) override;
  void OnFunction(const Function& function) override;
  void OnLocation(const Location& location) override;
  void OnStack(const Stack& stack) override;
  void OnSample(const Sample& sample) override;
  void OnEnd() override;

 private:
  struct Symbol {
    int64_t addr = 0;
    std::optional<std::string> file, function;
    std::optional<int64_t> line;
  };
  struct Sums {
    int64_t count = 0, alloc = 0, free = 0;
  };

  int64_t AddressFor(const Location& location, const Symbol& symbol);

  SqliteDb* db_;
  int64_t checkpoint_millis_;
  std::function<void(const std::string&)> warn_;
  ProfileHeader header_;
  int cpu_type_ = -1, alloc_type_ = -1, free_type_ = -1;
  std::string exe_path_;
  std::unordered_map<uint64_t, std::pair<std::string, std::string>> functions_;  // name, file
  std::unordered_map<uint64_t, int64_t> location_addrs_;  // location id -> addr
  std::map<int64_t, Symbol> symbols_;                     // by addr
  std::unordered_map<uint64_t, int64_t> stack_addrs_;     // stack id -> leaf addr
  int64_t next_synthetic_ = -1;
  std::optional<int64_t> start_nanos_;  // where checkpoints count from
  std::optional<int64_t> start_time_;   // meta start_time
  std::unordered_map<uint64_t, std::string> mapping_files_;
  std::vector<Label> first_labels_;
  bool any_sample_ = false;
  bool cut_stacks_ = false;
  std::map<std::pair<int64_t, int64_t>, Sums> sums_;  // (checkpoint, addr)
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_SQLITE_RSPROF_WRITER_H_
