// prof text -> pprof: aggregation, carried records, names pprof would rewrite, deterministic
// bytes, and the round trip of random profiles.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "common/io/gzip_sink.h"
#include "common/model/canonical_order.h"
#include "common/model/checker.h"
#include "common/pprof/pprof_conventions.h"
#include "tests/pprof_test_util.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace pprof_writer_test {  // a namespace of its own: the tests build as one unit
namespace {

namespace pb = perftools::profiles;

pb::Profile Write(const std::string& text, bool keep_samples = false) {
  pb::Profile p;
  EXPECT_TRUE(p.ParseFromString(testing::TextToPprof(text, keep_samples)));
  return p;
}

std::string Str(const pb::Profile& p, int64_t index) {
  return p.string_table(static_cast<int>(index));
}

// "key=str" or "key=num:unit" for each label of sample `i`.
std::string Labels(const pb::Profile& p, int i) {
  std::string out;
  for (const pb::Label& l : p.sample(i).label()) {
    out += Str(p, l.key()) + "=" +
           (l.str() != 0 ? Str(p, l.str()) : std::to_string(l.num()) + ":" + Str(p, l.num_unit())) +
           " ";
  }
  return out;
}

// Mappings as perf2prof defines them: in the order samples first reach them, libc first.
const char kPerfMappings[] =
    "mapping 1 0x7f00 0x7fff 0x0 /usr/lib/x86_64-linux-gnu/libc.so.6 \"\" FN\n"
    "mapping 2 0xff00 0xffff 0x0 [kernel.kallsyms] \"\" FN\n"
    "mapping 3 0x1000 0x2000 0x0 /usr/local/bin/my-server \"\" FN\n"
    "mapping 4 0x3000 0x4000 0x0 /tmp/perf-42.map \"\" FN\n";

std::vector<std::string> MappingFiles(const pb::Profile& p) {
  std::vector<std::string> files;
  for (const pb::Mapping& m : p.mapping()) files.push_back(Str(p, m.filename()));
  return files;
}

TEST(PprofWriter, PerfProfilesGetTheProgramAsTheMainMapping) {
  const pb::Profile p = Write("proftext 1.0\nsource 1 perf perf.txt -\ntype samples count\n" +
                              std::string(kPerfMappings));
  EXPECT_EQ(MappingFiles(p), (std::vector<std::string>{"/usr/local/bin/my-server",
                                                       "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                                       "[kernel.kallsyms]", "/tmp/perf-42.map"}));
  EXPECT_EQ(p.mapping(0).id(), 3u);  // moved, not renumbered
}

TEST(PprofWriter, OtherProfilesKeepTheirMappingOrder) {
  const pb::Profile p = Write(testing::Preamble() + kPerfMappings);
  EXPECT_EQ(MappingFiles(p)[0], "/usr/lib/x86_64-linux-gnu/libc.so.6");
}

TEST(PprofWriter, PerfProfilesWithoutAProgramMappingKeepTheirOrder) {
  const pb::Profile p = Write(
      "proftext 1.0\nsource 1 perf perf.txt -\ntype samples count\n"
      "mapping 1 0x7f00 0x7fff 0x0 /lib/libm.so \"\" -\n"
      "mapping 2 0x1000 0x2000 0x0 /lib/modules/x/kvm.ko \"\" -\n");
  EXPECT_EQ(MappingFiles(p), (std::vector<std::string>{"/lib/libm.so", "/lib/modules/x/kvm.ko"}));
}

const char kTwoStacks[] =
    "function 1 f \"\" \"\" 0\nlocation 1 - 0x0 - 1:0\nfunction 2 g \"\" \"\" 0\n"
    "location 2 - 0x0 - 2:0\nstack 1 1 2\nstack 2 2\n";

// As prof-merge writes: through CanonicalOrder, samples whose producer numbered their labels
// (Sample::labels_id), an id seen again only for the same labels; the labels are written as
// they are.
TEST(PprofWriter, LabelsNumberedByTheirProducerAreWrittenAsTheyAre) {
  Profile profile = testing::Parse(
      testing::Preamble() +
      "function 1 main \"\" m.c 1\nlocation 1 - 0x0 - 1:1\nstack 1 1\n"
      "sample 1 1 - - 1 thread=a\nsample 1 1 - - 2 thread=a\nsample 1 1 - - 3 thread=b\n"
      "sample 1 1 - - 4 thread=a\nsample 1 1 - - 5\nsample 1 1 - - 6 thread=a\n");
  const std::vector<uint64_t> ids = {1, 1, 2, 3, 4, 3};
  ASSERT_EQ(profile.samples.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) profile.samples[i].labels_id = ids[i];
  StringSink out;
  PprofWriteOptions options;
  options.unique_samples = true;
  {
    PprofWriter writer(&out, options);
    CanonicalOrder order(&writer);
    EmitProfile(profile, order);
  }
  pb::Profile p;
  ASSERT_TRUE(p.ParseFromString(out.text()));
  ASSERT_EQ(p.sample_size(), 6);
  const std::vector<std::string> expected = {"thread=a ", "thread=a ", "thread=b ",
                                             "thread=a ", "",          "thread=a "};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(Labels(p, i), expected[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(p.sample(i).value(0), i + 1);
  }
}

TEST(PprofWriter, SumsSamplesWithTheSameStackSourceAndLabels) {
  const pb::Profile p = Write(testing::Preamble("type samples count\ntype cpu ns\n") + kTwoStacks +
                              "sample 1 1 10 5 1 10\n"
                              "sample 1 2 - - 1 20\n"
                              "sample 1 1 11 5 2 30 t=a\n"
                              "sample 1 1 12 - 4 40\n");
  ASSERT_EQ(p.sample_size(), 3);
  // Order of first occurrence; TIME and DURATION neither separate nor survive.
  EXPECT_EQ(p.sample(0).location_id(0), 1u);
  EXPECT_EQ(p.sample(0).value(0), 5);
  EXPECT_EQ(p.sample(0).value(1), 50);
  EXPECT_EQ(p.sample(0).label_size(), 0);
  EXPECT_EQ(p.sample(1).location_id_size(), 1);
  EXPECT_EQ(p.sample(2).value(1), 30);
  EXPECT_EQ(Labels(p, 2), "t=a ");
}

// Labelled samples are aggregated by keys kept in 1 MiB arena blocks: many keys, long enough
// to fill several blocks, each met twice, still sum in order of first occurrence.
TEST(PprofWriter, SumsLabelledSamplesAcrossManyKeys) {
  std::string text = testing::Preamble() + kTwoStacks;
  const std::string padding(1000, 'x');
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 3000; ++k) {
      text += "sample 1 " + std::to_string(1 + k % 2) + " - - " + std::to_string(k + 1) +
              " t=" + std::to_string(k) + padding + "\n";
    }
  }
  const pb::Profile p = Write(text);
  ASSERT_EQ(p.sample_size(), 3000);
  for (int k = 0; k < 3000; k += 499) {
    EXPECT_EQ(p.sample(k).value(0), 2 * (k + 1)) << k;
    EXPECT_EQ(Labels(p, k), "t=" + std::to_string(k) + padding + " ") << k;
  }
}

TEST(PprofWriter, KeepSamplesCarriesTimeAndDuration) {
  const pb::Profile p = Write(testing::Preamble() + "stack 1\n" +
                                  "sample 1 1 10 5 1\nsample 1 1 - - 2 k=3:ms\nsample 1 1 7 - 3\n",
                              true);
  ASSERT_EQ(p.sample_size(), 3);
  EXPECT_EQ(Labels(p, 0), "proftools.time=10:nanoseconds proftools.duration=5:nanoseconds ");
  EXPECT_EQ(Labels(p, 1), "k=3:ms ");
  EXPECT_EQ(Labels(p, 2), "proftools.time=7:nanoseconds ");
}

TEST(PprofWriter, SourcesTravelAsCommentsAndLabels) {
  const pb::Profile p = Write(
      "proftext 1.0\nmeta host h\ncomment \"proftext: meta a b\"\ncomment plain\n"
      "source 1 perf \"a b.txt\" 5\nsource 2 rprof x -\ntype samples count\nstack 1\n"
      "sample 2 1 - - 1\nsample 1 1 - - 1\n");
  std::vector<std::string> comments;
  for (int64_t c : p.comment()) comments.push_back(Str(p, c));
  EXPECT_EQ(comments, (std::vector<std::string>{
                          "proftext: meta host h", "proftext: source 1 perf \"a b.txt\" 5",
                          "proftext: source 2 rprof x -",
                          "proftext: comment \"proftext: meta a b\"", "plain"}));
  EXPECT_EQ(Labels(p, 0), "proftools.source=2: ");
  EXPECT_EQ(Labels(p, 1), "proftools.source=1: ");
}

TEST(PprofWriter, OneSourceNeedsNoLabelAndASolePprofSourceNoComment) {
  pb::Profile p = Write(testing::Preamble() + "stack 1\nsample 1 1 - - 1\n");
  EXPECT_EQ(p.comment_size(), 1);
  EXPECT_EQ(p.sample(0).label_size(), 0);
  p = Write("proftext 1.0\nsource 1 pprof x.pb.gz -\ntype a b\nstack 1\nsample 1 1 - - 1\n");
  EXPECT_EQ(p.comment_size(), 0);
}

TEST(PprofWriter, UnusedStacksBecomeMarkedZeroSamples) {
  const pb::Profile p = Write(testing::Preamble() + kTwoStacks + "stack 3 1\nsample 1 2 - - 4\n");
  ASSERT_EQ(p.sample_size(), 3);
  EXPECT_EQ(Labels(p, 1), "proftools.unused_stack=1: ");
  EXPECT_EQ(p.sample(1).value(0), 0);
  EXPECT_EQ(p.sample(1).location_id_size(), 2);
  EXPECT_EQ(Labels(p, 2), "proftools.unused_stack=1: ");
}

TEST(PprofWriter, NamesPprofWouldRewriteGetNoSystemName) {
  const pb::Profile p =
      Write(testing::Preamble() +
            "function 1 <GC> <GC> \"\" 0\n"
            "function 2 <Anonymous> \"\" \"\" 0\n"
            "function 3 \"std::vector<int>::push_back\" _ZNSt6vectorIiSaIiEE9push_backERKi \"\" 0\n"
            "function 4 main main \"\" 0\n"
            "function 5 _Z4leafv _Z4leafv \"\" 0\n");
  ASSERT_EQ(p.function_size(), 5);
  EXPECT_EQ(p.function(0).system_name(), 0);
  EXPECT_EQ(Str(p, p.function(0).name()), "<GC>");
  EXPECT_EQ(p.function(1).system_name(), 0);
  EXPECT_EQ(Str(p, p.function(2).system_name()), "_ZNSt6vectorIiSaIiEE9push_backERKi");
  EXPECT_EQ(Str(p, p.function(3).system_name()), "main");
  EXPECT_EQ(p.function(4).system_name(), 0);
}

TEST(PprofConventions, RewriteRuleIsPprofs) {
  // From pprof's symbolizer.Demangle heuristic (see notes in pprof_conventions.h).
  for (const char* name :
       {"<GC>", "<Anonymous>", "<bytecode>", "std::vector<int>::push_back",
        "std::function<void ()>::operator()() const", "(anonymous namespace)::foo",
        "<T as Trait>::m", "_ZN3foo3barEv", "core::ptr::drop_in_place<alloc::vec::Vec<u8>>"}) {
    EXPECT_TRUE(PprofWouldRewriteName(name)) << name;
  }
  for (const char* name :
       {"main", "[.data.frame", "[[", "[unknown]", "foo(int)", "java.util.HashMap.<init>",
        "Rcpp::Rcout<<", "operator<", "[<-.data.frame", "a;b", "ns::f", "foo bar"}) {
    EXPECT_FALSE(PprofWouldRewriteName(name)) << name;
  }
}

TEST(PprofConventions, CarriedRecordsParseBack) {
  const Source source{4, "perf", "a \"b\"\n", 17};
  CarriedRecord r = ParseCarried(CarrySource(source));
  ASSERT_EQ(r.kind, CarriedRecord::kSource);
  EXPECT_EQ(r.source, source);
  r = ParseCarried(CarryMeta({"k y", ""}));
  ASSERT_EQ(r.kind, CarriedRecord::kMeta);
  EXPECT_EQ(r.meta, (MetaEntry{"k y", ""}));
  r = ParseCarried(CarryComment("proftext: source 1 x y -"));
  ASSERT_EQ(r.kind, CarriedRecord::kComment);
  EXPECT_EQ(r.comment, "proftext: source 1 x y -");
  EXPECT_EQ(CarryComment("plain"), "plain");
  EXPECT_EQ(ParseCarried("proftext: source 0 x y -").kind, CarriedRecord::kNone);
  EXPECT_EQ(ParseCarried("proftext: meta \"\" v").kind, CarriedRecord::kNone);
  EXPECT_EQ(ParseCarried("proftext: nonsense").kind, CarriedRecord::kNone);
}

TEST(PprofWriter, SameInputSameBytesAndAFixedGzipHeader) {
  const std::string text = testing::Preamble() + kTwoStacks + "sample 1 1 - - 1 z=\"\"\n";
  auto gzipped = [&] {
    StringSink out;
    GzipSink gzip(&out);
    gzip.Write(testing::TextToPprof(text, false));
    gzip.Finish();
    return out.text();
  };
  const std::string a = gzipped();
  EXPECT_EQ(a, gzipped());
  ASSERT_GE(a.size(), 10u);
  // magic, deflate, no flags, mtime 0, extra flags, OS 255.
  EXPECT_EQ(a.substr(0, 4), std::string("\x1f\x8b\x08\x00", 4));
  EXPECT_EQ(a.substr(4, 4), std::string(4, '\0'));
  EXPECT_EQ(static_cast<unsigned char>(a[9]), 255);
}

TEST(PprofWriter, EmptyStringLabelAndNumericZeroStayApart) {
  const std::string text = testing::Preamble() + "stack 1\nsample 1 1 - - 1 a=\"\" b=0 c=0:u\n";
  EXPECT_EQ(testing::PprofToText(testing::TextToPprof(text, true)), testing::Canonicalize(text));
}

// Random profiles survive prof2pprof --keep-samples | pprof2prof, except for what
// formats/prof-text.md §8 says cannot travel; those are normalised away first.
TEST(PprofRoundTrip, RandomProfilesComeBackAsTheSameCanonicalText) {
  testing::RandomProfileGenerator generator(4);
  for (int round = 0; round < 300; ++round) {
    Profile p = generator.Next();
    if (p.header.time_nanos == 0) p.header.time_nanos.reset();
    if (p.header.duration_nanos == 0) p.header.duration_nanos.reset();
    if (p.header.sources.size() == 1 && p.header.sources[0].type == kPprofSourceType) {
      p.header.sources[0].type = "manual";
    }
    Definitions defs;
    for (Function f : p.defs.functions.items()) {
      if (f.system_name == f.name && PprofWouldRewriteName(f.name)) f.system_name.clear();
      defs.functions.Add(f);
    }
    p.defs.functions = defs.functions;
    // pprof has no stack records, only each sample's locations: equal stacks become one.
    std::map<std::vector<uint64_t>, uint64_t> first;
    for (const Stack& s : p.defs.stacks.items()) {
      if (first.emplace(s.location_ids, s.id).second) defs.stacks.Add(s);
    }
    for (Sample& s : p.samples) s.stack_id = first[p.defs.stacks.Find(s.stack_id)->location_ids];
    p.defs.stacks = defs.stacks;
    const std::string text = ToCanonicalText(p);
    std::string back;
    ASSERT_NO_THROW(back = testing::PprofToText(testing::TextToPprof(text, true))) << text;
    ASSERT_EQ(back, text);
  }
}

}  // namespace
}  // namespace pprof_writer_test
}  // namespace proftools
