// Property: for random profiles, write -> read gives the same profile (up to id renumbering), and
// writing is deterministic and a fixed point.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <unordered_map>

#include "common/base/text_syntax.h"
#include "common/model/checker.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace {

// An id-free description of a profile: what it says, whatever ids it uses. Samples are resolved
// in order; definitions are compared as multisets of resolved content.
std::string Describe(const Profile& p) {
  auto str = [](const std::string& s) {
    std::string out;
    AppendQuoted(&out, s);
    return out;
  };
  auto mapping = [&](uint64_t id) -> std::string {
    const Mapping* m = p.defs.mappings.Find(id);
    if (m == nullptr) return "none";
    std::ostringstream os;
    os << "M(" << m->start << "," << m->limit << "," << m->offset << "," << str(m->file) << ","
       << str(m->build_id) << "," << m->has_functions << m->has_filenames << m->has_line_numbers
       << m->has_inline_frames << ")";
    return os.str();
  };
  auto function = [&](uint64_t id) {
    const Function& f = *p.defs.functions.Find(id);
    return "F(" + str(f.name) + "," + str(f.system_name) + "," + str(f.file) + "," +
           std::to_string(f.start_line) + ")";
  };
  auto location = [&](uint64_t id) {
    const Location& l = *p.defs.locations.Find(id);
    std::string out = "L(" + mapping(l.mapping_id) + "," + std::to_string(l.address) + "," +
                      std::to_string(l.is_folded);
    for (const Line& line : l.lines) {
      out += "," + function(line.function_id) + ":" + std::to_string(line.line) + ":" +
             std::to_string(line.column);
    }
    return out + ")";
  };
  auto stack = [&](uint64_t id) {
    std::string out = "S(";
    for (uint64_t loc : p.defs.stacks.Find(id)->location_ids) out += location(loc) + ",";
    return out + ")";
  };
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    std::string out;
    for (const std::string& s : v) out += s + "\n";
    return out;
  };

  std::ostringstream os;
  const ProfileHeader& h = p.header;
  std::vector<std::string> meta;
  for (const MetaEntry& e : h.meta) meta.push_back(str(e.key) + "=" + str(e.value));
  os << "meta:\n" << sorted(meta) << "comments:";
  for (const std::string& c : h.comments) os << " " << str(c);
  os << "\ntime " << h.time_nanos.value_or(-1) << " duration " << h.duration_nanos.value_or(-1)
     << " period " << str(h.period.type.type) << str(h.period.type.unit) << h.period.value
     << " doc " << str(h.doc_url) << " drop " << str(h.drop_frames) << " keep "
     << str(h.keep_frames) << " default " << str(h.default_type) << "\ntypes:";
  for (const ValueType& t : h.types) os << " " << str(t.type) << "/" << str(t.unit);
  auto source = [&](uint64_t id) {
    const Source* s = h.FindSource(id);
    return "src(" + str(s->type) + "," + str(s->uri) + "," +
           std::to_string(s->time_nanos.value_or(-1)) + ")";
  };
  os << "\nsources:";
  for (const Source& s : h.sources) os << " " << source(s.id);
  os << "\nsamples:\n";
  for (const Sample& s : p.samples) {
    os << source(s.source_id) << " " << stack(s.stack_id) << " t=" << s.time_nanos.value_or(-1)
       << " d=" << s.duration_nanos.value_or(-1) << " v=";
    for (int64_t v : s.values) os << v << ",";
    for (const Label& l : s.labels) {
      os << " " << str(l.key)
         << (l.is_num ? "#" + std::to_string(l.num) + str(l.unit) : str(l.str));
    }
    os << "\n";
  }
  std::vector<std::string> all;
  for (const Mapping& m : p.defs.mappings.items()) all.push_back(mapping(m.id));
  for (const Function& f : p.defs.functions.items()) all.push_back(function(f.id));
  for (const Location& l : p.defs.locations.items()) all.push_back(location(l.id));
  for (const Stack& s : p.defs.stacks.items()) all.push_back(stack(s.id));
  os << "definitions:\n" << sorted(all);
  return os.str();
}

// The same profile with other ids: a random one-to-one renaming of every kind's ids, which
// changes every hash of an id and every order of ids, but not the order of the records (unused
// definitions keep the order of the input, spec §7.1).
Profile Renumbered(const Profile& p, std::mt19937_64* random) {
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
  auto sources = renaming(source_ids);
  auto mappings = renaming(ids_of(p.defs.mappings));
  auto functions = renaming(ids_of(p.defs.functions));
  auto locations = renaming(ids_of(p.defs.locations));
  auto stacks = renaming(ids_of(p.defs.stacks));
  Profile q;
  q.header = p.header;
  for (Source& s : q.header.sources) s.id = sources.at(s.id);
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
    sample.source_id =
        sources.count(sample.source_id) ? sources.at(sample.source_id) : sample.source_id;
    sample.stack_id = stacks.at(sample.stack_id);
    q.samples.push_back(sample);
  }
  return q;
}

TEST(RoundTripProperty, WriteThenReadPreservesEveryProfile) {
  testing::RandomProfileGenerator generator(20261122);
  for (int round = 0; round < 500; ++round) {
    const Profile original = generator.Next();
    DiagnosticHandler throwing;
    ASSERT_NO_THROW(ValidateProfile(original, &throwing, "generated"));
    const std::string text = ToCanonicalText(original);
    Profile reread;
    ASSERT_NO_THROW(reread = testing::Parse(text)) << text;
    ASSERT_EQ(Describe(reread), Describe(original)) << text;
    // Canonical text is a fixed point of read+write.
    ASSERT_EQ(ToCanonicalText(reread), text);
  }
}

// Determinism: the canonical text does not depend on the ids a profile came with (the hash-order
// dependence the determinism invariant rules out, which writing one profile twice in one process
// cannot show).
TEST(RoundTripProperty, CanonicalTextIsTheSameWhateverTheIds) {
  testing::RandomProfileGenerator generator(20261126);
  std::mt19937_64 random(23);
  for (int round = 0; round < 300; ++round) {
    const Profile original = generator.Next();
    const std::string text = ToCanonicalText(original);
    for (int variant = 0; variant < 3; ++variant) {
      const Profile renumbered = Renumbered(original, &random);
      DiagnosticHandler throwing;
      ASSERT_NO_THROW(ValidateProfile(renumbered, &throwing, "renumbered"));
      ASSERT_EQ(ToCanonicalText(renumbered), text);
      ASSERT_EQ(testing::Canonicalize(ToCanonicalText(renumbered)), text);
    }
  }
}

TEST(RoundTripProperty, StreamingCanonicalizationEqualsWholeProfileWriting) {
  testing::RandomProfileGenerator generator(7);
  for (int round = 0; round < 200; ++round) {
    const std::string text = ToCanonicalText(generator.Next());
    ASSERT_EQ(testing::Canonicalize(text), text);
  }
}

}  // namespace
}  // namespace proftools
