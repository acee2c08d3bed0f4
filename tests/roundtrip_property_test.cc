// Property: for random profiles, write -> read gives the same profile (up to id renumbering), and
// writing is deterministic and a fixed point.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/base/text_syntax.h"
#include "common/model/checker.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace roundtrip_property_test {  // a namespace of its own: the tests build as one unit
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
      const Profile renumbered = testing::Renumbered(original, &random);
      DiagnosticHandler throwing;
      ASSERT_NO_THROW(ValidateProfile(renumbered, &throwing, "renumbered"));
      ASSERT_EQ(ToCanonicalText(renumbered), text);
      ASSERT_EQ(testing::Canonicalize(ToCanonicalText(renumbered)), text);
    }
  }
}

// The first `n` space-separated tokens of `line` and what follows them (after one space). Only
// used for the fields before any string (ids and references), which hold no spaces.
std::pair<std::vector<std::string>, std::string> SplitFirst(const std::string& line, size_t n) {
  std::vector<std::string> tokens;
  size_t at = 0;
  while (tokens.size() < n && at <= line.size()) {
    size_t end = line.find(' ', at);
    if (end == std::string::npos) end = line.size();
    tokens.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  return {tokens, at < line.size() ? line.substr(at) : ""};
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool IsDefinition(const std::string& kind) {
  return kind == "mapping" || kind == "function" || kind == "location" || kind == "stack";
}

// What breaks the canonical form's order and ids (spec §7.1 4-5, §7.2) in `text`, "" when
// nothing does: checked on the text alone, independently of the canonical writer. Each kind's ids
// are 1, 2, 3... in order of appearance; every reference is to a record already written; before
// each sample come exactly the definitions it needs that were not written yet, in the order of
// 7.1 4 (for each location of its stack, leaf first: the mapping, the functions, the location;
// then the stack); the definitions no sample uses come last, mappings, functions, locations,
// then stacks.
std::string CanonicalOrderProblem(const std::string& text) {
  using Ref = std::pair<std::string, uint64_t>;
  std::map<std::string, uint64_t> count;
  std::set<Ref> defined, committed;  // committed: written before the current sample's run
  std::map<uint64_t, std::vector<uint64_t>> stack_locations;
  std::map<uint64_t, std::pair<uint64_t, std::vector<uint64_t>>> location_refs;
  std::vector<Ref> pending;
  bool after_last_sample = false;
  int tail_rank = 0;
  const std::map<std::string, int> rank{
      {"mapping", 0}, {"function", 1}, {"location", 2}, {"stack", 3}};
  const std::vector<std::string> lines = Lines(text);
  // The samples after this line index: none once the last sample is passed.
  size_t last_sample = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("sample ", 0) == 0) last_sample = i;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string where = "line " + std::to_string(i + 1) + " (" + line + "): ";
    const std::string kind = line.substr(0, line.find(' '));
    after_last_sample = i > last_sample;
    auto need = [&](const std::string& k, const std::string& id) -> std::string {
      if (id == "-") return "";
      if (!defined.count({k, std::stoull(id)})) return where + k + " " + id + " not written yet";
      return "";
    };
    if (kind == "source" || IsDefinition(kind)) {
      const uint64_t id = std::stoull(SplitFirst(line, 2).first[1]);
      if (id != ++count[kind]) {
        return where + "id " + std::to_string(id) + ", expected " + std::to_string(count[kind]);
      }
      defined.insert({kind, id});
    }
    if (kind == "location") {
      std::vector<std::string> tokens = SplitFirst(line, 1000).first;
      if (std::string problem = need("mapping", tokens[2]); !problem.empty()) return problem;
      auto& refs = location_refs[count[kind]];
      refs.first = tokens[2] == "-" ? 0 : std::stoull(tokens[2]);
      for (size_t t = 5; t < tokens.size(); ++t) {
        const std::string function = tokens[t].substr(0, tokens[t].find(':'));
        if (std::string problem = need("function", function); !problem.empty()) return problem;
        refs.second.push_back(std::stoull(function));
      }
    } else if (kind == "stack") {
      std::vector<std::string> tokens = SplitFirst(line, 100000).first;
      for (size_t t = 2; t < tokens.size(); ++t) {
        if (std::string problem = need("location", tokens[t]); !problem.empty()) return problem;
        stack_locations[count[kind]].push_back(std::stoull(tokens[t]));
      }
    } else if (kind == "sample") {
      const std::vector<std::string> tokens = SplitFirst(line, 3).first;
      if (std::string problem = need("source", tokens[1]); !problem.empty()) return problem;
      if (std::string problem = need("stack", tokens[2]); !problem.empty()) return problem;
      const uint64_t stack = std::stoull(tokens[2]);
      std::vector<Ref> expected;
      std::set<Ref> seen = committed;
      auto add = [&](const Ref& ref) {
        if (seen.insert(ref).second) expected.push_back(ref);
      };
      for (uint64_t location : stack_locations[stack]) {
        if (seen.count({"location", location})) continue;
        const auto& [mapping, functions] = location_refs[location];
        if (mapping != 0) add({"mapping", mapping});
        for (uint64_t function : functions) add({"function", function});
        add({"location", location});
      }
      add({"stack", stack});
      if (pending != expected) return where + "not preceded by exactly the definitions it needs";
      pending.clear();
      committed = defined;
    }
    if (IsDefinition(kind)) {
      pending.push_back({kind, count[kind]});
      if (after_last_sample) {
        if (rank.at(kind) < tail_rank) return where + "unused definitions out of order";
        tail_rank = rank.at(kind);
      }
    }
  }
  return "";
}

// `text` (canonical) made as far from canonical as the format allows by editing its lines, not
// through the writer: every kind's ids renamed at random, every definition moved to before the
// first sample (in the same order: the unused ones keep theirs), the comment block dropped.
std::string Scrambled(const std::string& text, std::mt19937_64* random) {
  std::map<std::string, std::map<uint64_t, uint64_t>> rename;
  for (const std::string& line : Lines(text)) {
    const std::string kind = line.substr(0, line.find(' '));
    if (kind != "source" && !IsDefinition(kind)) continue;
    auto& to = rename[kind];
    const uint64_t id = std::stoull(SplitFirst(line, 2).first[1]);
    to[id] = 1 + to.size() * 53 + (*random)() % 53;
  }
  for (auto& [kind, to] : rename) {  // shuffled: the order of ids no longer the order of lines
    std::vector<uint64_t> ids;
    for (const auto& [from, id] : to) ids.push_back(id);
    std::shuffle(ids.begin(), ids.end(), *random);
    size_t i = 0;
    for (auto& [from, id] : to) id = ids[i++];
  }
  auto id = [&](const std::string& kind, const std::string& token) {
    return token == "-" ? token : std::to_string(rename[kind].at(std::stoull(token)));
  };
  std::string head, definitions, samples;
  for (const std::string& line : Lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    const std::string kind = line.substr(0, line.find(' '));
    if (kind == "source" || kind == "mapping" || kind == "function") {
      auto [tokens, rest] = SplitFirst(line, 2);
      std::string out = kind + " " + id(kind, tokens[1]) + " " + rest + "\n";
      (kind == "source" ? head : definitions) += out;
    } else if (kind == "location") {
      auto [tokens, rest] = SplitFirst(line, 5);
      std::string out = "location " + id(kind, tokens[1]) + " " + id("mapping", tokens[2]) + " " +
                        tokens[3] + " " + tokens[4];
      for (const std::string& frame : SplitFirst(rest, 100000).first) {
        if (frame.empty()) continue;
        const size_t colon = frame.find(':');
        out += " " + id("function", frame.substr(0, colon)) + frame.substr(colon);
      }
      definitions += out + "\n";
    } else if (kind == "stack") {
      std::string out = "stack";
      for (const std::string& token : SplitFirst(line, 100000).first) {
        if (token != "stack") out += " " + id(out == "stack" ? kind : "location", token);
      }
      definitions += out + "\n";
    } else if (kind == "sample") {
      auto [tokens, rest] = SplitFirst(line, 3);
      samples +=
          "sample " + id("source", tokens[1]) + " " + id("stack", tokens[2]) + " " + rest + "\n";
    } else {
      head += line + "\n";
    }
  }
  return head + definitions + samples;
}

// The streaming canonicalizer (reader into CanonicalWriter) against a path that does not share
// it: the whole-profile text, whose order and ids are checked on their own (above), and a
// scrambled copy made by editing lines, which must canonicalize back to the same bytes.
TEST(RoundTripProperty, StreamingCanonicalizationEqualsWholeProfileWriting) {
  testing::RandomProfileGenerator generator(7);
  std::mt19937_64 random(41);
  for (int round = 0; round < 200; ++round) {
    const Profile original = generator.Next();
    const std::string text = ToCanonicalText(original);
    ASSERT_EQ(CanonicalOrderProblem(text), "") << text;
    ASSERT_EQ(Describe(testing::Parse(text)), Describe(original)) << text;
    const std::string scrambled = Scrambled(text, &random);
    ASSERT_NE(scrambled, text);
    ASSERT_EQ(Describe(testing::Parse(scrambled)), Describe(original)) << scrambled;
    ASSERT_EQ(testing::Canonicalize(scrambled), text) << scrambled;
  }
}

// The checker above can fail: a canonical text with two definitions swapped, or one id changed,
// breaks it.
TEST(RoundTripProperty, TheCanonicalOrderCheckSeesWrongOrders) {
  const std::string text = ToCanonicalText(
      testing::Parse(testing::StacksProfile({{"main a b", 3}, {"main c", 1}, {"main a", 2}})));
  ASSERT_EQ(CanonicalOrderProblem(text), "") << text;
  std::vector<std::string> lines = Lines(text);
  const auto first_function = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.rfind("function ", 0) == 0;
  });
  ASSERT_NE(first_function, lines.end());
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& l : v) out += l + "\n";
    return out;
  };
  std::vector<std::string> swapped = lines;
  std::iter_swap(swapped.begin() + (first_function - lines.begin()),
                 swapped.begin() + (first_function - lines.begin()) + 1);
  EXPECT_NE(CanonicalOrderProblem(join(swapped)), "");
  std::vector<std::string> renamed = lines;
  renamed[first_function - lines.begin()].replace(9, 1, "7");
  EXPECT_NE(CanonicalOrderProblem(join(renamed)), "");
  // A sample moved before the definitions it needs.
  std::vector<std::string> moved = lines;
  const auto sample = std::find_if(moved.begin(), moved.end(),
                                   [](const std::string& l) { return l.rfind("sample ", 0) == 0; });
  std::rotate(first_function - lines.begin() + moved.begin(), sample, sample + 1);
  EXPECT_NE(CanonicalOrderProblem(join(moved)), "");
}

}  // namespace
}  // namespace roundtrip_property_test
}  // namespace proftools
