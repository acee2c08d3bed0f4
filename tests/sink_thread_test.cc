// ProduceOnThread: the consumer gets exactly the records the producer made, in order, across
// many batches; an error of either side stops both and reaches the caller.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/model/sink_thread.h"
#include "common/text/text_writer.h"
#include "tests/random_profile.h"

namespace proftools {
namespace {

// A profile large enough to fill many batches: a random one, its samples repeated.
Profile LargeProfile(uint32_t seed) {
  Profile p = testing::RandomProfileGenerator(seed).Next();
  const size_t n = p.samples.size();
  for (int copy = 0; copy < 2000 && n > 0; ++copy) {
    for (size_t i = 0; i < n; ++i) p.samples.push_back(p.samples[i]);
  }
  return p;
}

TEST(SinkThread, DeliversTheSameRecordsInOrder) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const Profile p = LargeProfile(seed);
    StringSink direct_text, threaded_text;
    CanonicalWriter direct(&direct_text), threaded(&threaded_text);
    EmitProfile(p, direct);
    ProduceOnThread([&](ProfileSink* sink) { EmitProfile(p, *sink); }, &threaded);
    ASSERT_EQ(threaded_text.text(), direct_text.text()) << "seed " << seed;
  }
}

// Counts samples; throws at the `fail_at`th when set.
class CountingSink : public DiscardingSink {
 public:
  explicit CountingSink(size_t fail_at = 0) : fail_at_(fail_at) {}
  void OnSample(const Sample&) override {
    if (++samples_ == fail_at_) throw std::runtime_error("consumer failed");
  }
  size_t samples() const { return samples_; }

 private:
  size_t fail_at_;
  size_t samples_ = 0;
};

TEST(SinkThread, TheProducersErrorComesAfterWhatItProduced) {
  CountingSink counting;
  const auto produce = [](ProfileSink* sink) {
    sink->OnHeader(ProfileHeader());
    Sample sample;
    for (int i = 0; i < 10007; ++i) sink->OnSample(sample);
    throw std::runtime_error("producer failed");
  };
  try {
    ProduceOnThread(produce, &counting);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "producer failed");
  }
  EXPECT_EQ(counting.samples(), 10007u);
}

TEST(SinkThread, AProducerWithoutOnEndHasEverythingDelivered) {
  CountingSink counting;
  ProduceOnThread(
      [](ProfileSink* sink) {
        Sample sample;
        for (int i = 0; i < 3001; ++i) sink->OnSample(sample);
      },
      &counting);
  EXPECT_EQ(counting.samples(), 3001u);
}

TEST(SinkThread, TheConsumersErrorStopsAProducerThatWouldNotEnd) {
  CountingSink counting(5000);
  const auto produce = [](ProfileSink* sink) {
    sink->OnHeader(ProfileHeader());
    Sample sample;
    while (true) sink->OnSample(sample);  // only cancelling ends it
  };
  EXPECT_THROW(ProduceOnThread(produce, &counting), std::runtime_error);
  EXPECT_EQ(counting.samples(), 5000u);
}

TEST(BackgroundProducer, TwoAtOnceDeliverTheirOwnRecordsInTurn) {
  // The second starts while the first is still being delivered, as prof-merge reads ahead.
  const Profile a = LargeProfile(3), b = LargeProfile(4);
  StringSink a_direct, b_direct, a_text, b_text;
  CanonicalWriter a_writer(&a_direct), b_writer(&b_direct), a_threaded(&a_text),
      b_threaded(&b_text);
  EmitProfile(a, a_writer);
  EmitProfile(b, b_writer);
  BackgroundProducer first([&](ProfileSink* sink) { EmitProfile(a, *sink); });
  BackgroundProducer second([&](ProfileSink* sink) { EmitProfile(b, *sink); });
  first.Deliver(&a_threaded);
  second.Deliver(&b_threaded);
  EXPECT_EQ(a_text.text(), a_direct.text());
  EXPECT_EQ(b_text.text(), b_direct.text());
}

TEST(BackgroundProducer, DestroyedUndeliveredItStopsAProducerThatWouldNotEnd) {
  // (An earlier input failed: the one read ahead is not wanted.) Must not hang.
  BackgroundProducer producer([](ProfileSink* sink) {
    Sample sample;
    while (true) sink->OnSample(sample);
  });
}

TEST(BackgroundProducer, TheErrorComesAtDeliverAfterTheRecords) {
  BackgroundProducer producer([](ProfileSink* sink) {
    Sample sample;
    for (int i = 0; i < 5003; ++i) sink->OnSample(sample);
    throw std::runtime_error("unreadable");
  });
  CountingSink counting;
  EXPECT_THROW(producer.Deliver(&counting), std::runtime_error);
  EXPECT_EQ(counting.samples(), 5003u);
}

}  // namespace
}  // namespace proftools
