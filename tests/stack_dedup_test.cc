// StackDedupSink: a stream that defines a stack before every sample (ids of its own, contents
// repeating) comes out as the producer's Interner would have sent it, text for text; a sample
// of any stack but the last is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/base/diagnostics.h"
#include "common/model/interner.h"
#include "common/model/sink_thread.h"
#include "common/model/stack_dedup.h"
#include "common/text/text_writer.h"
#include "tests/random_profile.h"

namespace proftools {
namespace stack_dedup_test {  // a namespace of its own: the tests build as one unit
namespace {

// Emits `p`'s header and definitions but its stacks; then, for each sample, its stack's
// content: defined anew with an id of its own when `raw`, else interned. Every third sample
// comes twice, the second time on the id of the first (as an off-CPU interval reuses its
// thread's last stack).
void EmitPerSampleStacks(const Profile& p, bool raw, ProfileSink* sink) {
  sink->OnHeader(p.header);
  for (const Mapping& mapping : p.defs.mappings.items()) sink->OnMapping(mapping);
  for (const Function& function : p.defs.functions.items()) sink->OnFunction(function);
  for (const Location& location : p.defs.locations.items()) sink->OnLocation(location);
  Interner interner(sink);
  uint64_t raw_id = 1000;  // the producer's own ids, unrelated to the interned ones
  for (size_t i = 0; i < p.samples.size(); ++i) {
    Sample sample = p.samples[i];
    const Stack* stack = p.defs.stacks.Find(sample.stack_id);
    std::vector<uint64_t> frames;
    if (stack != nullptr) frames = stack->location_ids;
    if (!raw) {
      sample.stack_id = interner.Stack(frames);
    } else {
      raw_id += 7;
      sink->OnStack(Stack{raw_id, frames});
      // A repeated definition of an id keeps the first: this one is ignored.
      sink->OnStack(Stack{raw_id, {}});
      sample.stack_id = raw_id;
    }
    sink->OnSample(sample);
    if (i % 3 == 2) sink->OnSample(sample);
  }
  sink->OnEnd();
}

TEST(StackDedup, PerSampleStacksComeOutAsInterned) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    Profile p = testing::RandomProfileGenerator(seed).Next();
    // Samples that repeat stacks, taking turns between label sets numbered by labels_id.
    const size_t n = p.samples.size();
    for (size_t copy = 0; copy < 3; ++copy) {
      for (size_t i = 0; i < n; ++i) p.samples.push_back(p.samples[i]);
    }
    for (size_t i = 0; i < p.samples.size(); ++i) {
      const uint64_t set = 1 + (i * 5) % 3;
      p.samples[i].labels = {Label::Number("tid", static_cast<int64_t>(set))};
      p.samples[i].labels_id = i % 4 == 0 ? 0 : set;
    }
    StringSink expected_text, direct_text, threaded_text;
    CanonicalWriter expected(&expected_text), direct(&direct_text), threaded(&threaded_text);
    EmitPerSampleStacks(p, false, &expected);
    StackDedupSink direct_dedup(&direct);
    EmitPerSampleStacks(p, true, &direct_dedup);
    StackDedupSink threaded_dedup(&threaded);
    ProduceOnThread([&](ProfileSink* sink) { EmitPerSampleStacks(p, true, sink); },
                    &threaded_dedup);
    ASSERT_EQ(direct_text.text(), expected_text.text()) << "seed " << seed;
    ASSERT_EQ(threaded_text.text(), expected_text.text()) << "seed " << seed;
  }
}

TEST(StackDedup, ASampleOfAStackBeforeTheLastIsAnInternalError) {
  StringSink text;
  CanonicalWriter writer(&text);
  StackDedupSink dedup(&writer);
  ProfileHeader header;
  header.sources.push_back(Source{1, "perf", "", std::nullopt});
  dedup.OnHeader(header);
  Sample sample;
  sample.source_id = 1;
  sample.stack_id = 5;
  EXPECT_THROW(dedup.OnSample(sample), ProfError);  // none defined yet
  dedup.OnStack(Stack{5, {}});
  dedup.OnSample(sample);
  dedup.OnStack(Stack{6, {}});
  EXPECT_THROW(dedup.OnSample(sample), ProfError);  // 5 is not the last any more
}

}  // namespace
}  // namespace stack_dedup_test
}  // namespace proftools
