// Property: for random profiles, write -> read gives the same profile (up to id renumbering), and
// writing is deterministic and a fixed point.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

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
    // Deterministic, and canonical text is a fixed point of read+write.
    ASSERT_EQ(ToCanonicalText(original), text);
    ASSERT_EQ(ToCanonicalText(reread), text);
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
