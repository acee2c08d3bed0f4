// Random valid profiles for property tests: arbitrary bytes in names, labels of both kinds,
// unused definitions, repeated stacks, ids in no particular order.
#ifndef PROFTOOLS_TESTS_RANDOM_PROFILE_H_
#define PROFTOOLS_TESTS_RANDOM_PROFILE_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/model/definitions.h"

namespace proftools::testing {

class RandomProfileGenerator {
 public:
  explicit RandomProfileGenerator(uint32_t seed) : random_(seed) {}

  Profile Next() {
    Profile p;
    ProfileHeader& h = p.header;
    for (int i = Int(0, 2); i > 0; --i) h.meta.push_back({"key" + std::to_string(i), Bytes(8)});
    for (int i = Int(0, 2); i > 0; --i) h.comments.push_back(Bytes(10));
    if (Int(0, 1)) h.time_nanos = Int(0, 1 << 30);
    if (Int(0, 1)) h.duration_nanos = Int(0, 1 << 30);
    if (Int(0, 1)) h.period = Period{{"cpu", "nanoseconds"}, Int(1, 1000000)};
    if (Int(0, 3) == 0) h.doc_url = Bytes(6);
    if (Int(0, 3) == 0) h.drop_frames = Bytes(6);
    if (Int(0, 3) == 0) h.keep_frames = Bytes(6);
    const std::vector<uint64_t> source_ids = Ids(Int(1, 3));
    for (uint64_t id : source_ids) {
      Source s{id, NonEmpty(5), Bytes(8), std::nullopt};
      if (Int(0, 1)) s.time_nanos = Int(0, 1 << 30);
      h.sources.push_back(s);
    }
    const int type_count = Int(1, 3);
    for (int i = 0; i < type_count; ++i) {
      h.types.push_back({"type" + std::to_string(i) + Bytes(3), Bytes(4)});
    }
    if (Int(0, 1)) h.default_type = h.types[Int(0, type_count - 1)].type;

    const std::vector<uint64_t> mapping_ids = Ids(Int(0, 3));
    for (uint64_t id : mapping_ids) {
      Mapping m;
      m.id = id;
      m.start = Uint();
      m.limit = Uint();
      m.offset = Uint();
      m.file = Bytes(10);
      m.build_id = Bytes(6);
      m.has_functions = Int(0, 1);
      m.has_filenames = Int(0, 1);
      m.has_line_numbers = Int(0, 1);
      m.has_inline_frames = Int(0, 1);
      p.defs.mappings.Add(m);
    }
    const std::vector<uint64_t> function_ids = Ids(Int(1, 10));
    for (uint64_t id : function_ids) {
      p.defs.functions.Add(Function{id, NonEmpty(12), Bytes(12), Bytes(8), Int(0, 5000)});
    }
    const std::vector<uint64_t> location_ids = Ids(Int(1, 10));
    for (uint64_t id : location_ids) {
      Location l;
      l.id = id;
      l.mapping_id = !mapping_ids.empty() && Int(0, 1) ? Pick(mapping_ids) : 0;
      l.address = Uint();
      l.is_folded = Int(0, 5) == 0;
      for (int k = Int(0, 3); k > 0; --k) {
        l.lines.push_back(Line{Pick(function_ids), Int(0, 3000), Int(0, 2) ? 0 : Int(1, 80)});
      }
      p.defs.locations.Add(l);
    }
    const std::vector<uint64_t> stack_ids = Ids(Int(1, 8));
    for (uint64_t id : stack_ids) {
      Stack s{id, {}};
      for (int k = Int(0, 5); k > 0; --k) s.location_ids.push_back(Pick(location_ids));
      p.defs.stacks.Add(s);
    }
    for (int i = Int(0, 30); i > 0; --i) {
      Sample s;
      s.source_id = Pick(source_ids);
      s.stack_id = Pick(stack_ids);
      if (Int(0, 1)) s.time_nanos = Int(0, 1 << 30);
      if (Int(0, 3) == 0) s.duration_nanos = Int(0, 1 << 20);
      for (int k = 0; k < type_count; ++k) s.values.push_back(Value());
      for (int k = Int(0, 3); k > 0; --k) {
        if (Int(0, 1)) {
          s.labels.push_back(Label::Number(NonEmpty(5), Value(), Int(0, 1) ? "" : NonEmpty(4)));
        } else {
          s.labels.push_back(Label::String(NonEmpty(5), Bytes(6)));
        }
      }
      p.samples.push_back(s);
    }
    return p;
  }

 private:
  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(random_);
  }
  uint64_t Uint() { return Int(0, 3) == 0 ? random_() : static_cast<uint64_t>(Int(0, 1 << 20)); }
  int64_t Value() {
    switch (Int(0, 4)) {
      case 0:
        return 0;
      case 1:
        return -Int(1, 1000);
      case 2:
        return Int(INT64_MIN, INT64_MAX);
      default:
        return Int(1, 100000000);
    }
  }
  // Bytes drawn from a set that exercises quoting: blanks, quotes, separators, UTF-8 and
  // invalid bytes, control characters.
  std::string Bytes(int max_length) {
    static const std::string kAlphabet = std::string("abc_;:=#-0123 \t\n\r\"\\<>()", 24) +
                                         std::string("\0\x01\x7f", 3) + "\xc3\xa9\xe2\x98\x95\xff";
    std::string s(Int(0, max_length), ' ');
    for (char& c : s) c = kAlphabet[Int(0, kAlphabet.size() - 1)];
    return s;
  }
  std::string NonEmpty(int max_length) {
    std::string s = Bytes(max_length);
    return s.empty() ? "x" : s;
  }
  std::vector<uint64_t> Ids(int count) {
    std::vector<uint64_t> ids;
    while (static_cast<int>(ids.size()) < count) {
      const uint64_t id = Int(0, 2) ? Int(1, 50) : random_() + 1;
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
    return ids;
  }
  uint64_t Pick(const std::vector<uint64_t>& ids) { return ids[Int(0, ids.size() - 1)]; }

  std::mt19937_64 random_;
};

// The same profile with other ids: a random one-to-one renaming of every kind's ids, which
// changes every hash of an id and every order of ids, but not the order of the records (unused
// definitions keep the order of the input, spec §7.1). With `sources` false, source ids are kept
// (writers show them, as prof2firefox's "source 3" thread: they are content, not just ids).
inline Profile Renumbered(const Profile& p, std::mt19937_64* random, bool sources = true) {
  auto renaming = [&](const std::vector<uint64_t>& ids) {
    std::vector<uint64_t> fresh;
    for (size_t i = 0; i < ids.size(); ++i) fresh.push_back(1 + i * 37 + (*random)() % 37);
    std::shuffle(fresh.begin(), fresh.end(), *random);
    std::unordered_map<uint64_t, uint64_t> to;
    for (size_t i = 0; i < ids.size(); ++i) to[ids[i]] = fresh[i];
    to[0] = 0;  // "none" stays none
    return to;
  };
  auto ids_of = [](const auto& table) {
    std::vector<uint64_t> ids;
    for (const auto& record : table.items()) ids.push_back(record.id);
    return ids;
  };
  std::vector<uint64_t> source_ids;
  for (const Source& s : p.header.sources) source_ids.push_back(s.id);
  auto source_renaming = renaming(source_ids);
  if (!sources) {
    for (uint64_t id : source_ids) source_renaming[id] = id;
  }
  auto mappings = renaming(ids_of(p.defs.mappings));
  auto functions = renaming(ids_of(p.defs.functions));
  auto locations = renaming(ids_of(p.defs.locations));
  auto stacks = renaming(ids_of(p.defs.stacks));
  Profile q;
  q.header = p.header;
  for (Source& s : q.header.sources) s.id = source_renaming.at(s.id);
  for (Mapping m : p.defs.mappings.items()) {
    m.id = mappings.at(m.id);
    q.defs.mappings.Add(m);
  }
  for (Function f : p.defs.functions.items()) {
    f.id = functions.at(f.id);
    q.defs.functions.Add(f);
  }
  for (Location l : p.defs.locations.items()) {
    l.id = locations.at(l.id);
    l.mapping_id = mappings.at(l.mapping_id);
    for (Line& line : l.lines) line.function_id = functions.at(line.function_id);
    q.defs.locations.Add(l);
  }
  for (Stack st : p.defs.stacks.items()) {
    st.id = stacks.at(st.id);
    for (uint64_t& id : st.location_ids) id = locations.at(id);
    q.defs.stacks.Add(st);
  }
  for (Sample sample : p.samples) {
    sample.source_id = source_renaming.count(sample.source_id)
                           ? source_renaming.at(sample.source_id)
                           : sample.source_id;
    sample.stack_id = stacks.at(sample.stack_id);
    q.samples.push_back(sample);
  }
  return q;
}

}  // namespace proftools::testing

#endif  // PROFTOOLS_TESTS_RANDOM_PROFILE_H_
