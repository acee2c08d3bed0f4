// ProduceOnThread: the consumer gets exactly the records the producer made, in order, across
// many batches; an error of either side stops both and reaches the caller.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/model/sink_thread.h"
#include "common/text/text_writer.h"
#include "tests/random_profile.h"

namespace proftools {
namespace sink_thread_test {  // a namespace of its own: the tests build as one unit
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

// Runs `body` on a thread of its own and fails the test when it has not returned within
// `limit`: a test of something that must not hang fails when it hangs instead of never ending.
// A body that hangs is left running, detached (it owns what it uses).
template <typename Body>
void FinishesWithin(std::chrono::seconds limit, Body body) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([done, body = std::move(body)]() mutable {
    try {
      body();
      done->set_value();
    } catch (...) {
      done->set_exception(std::current_exception());
    }
  }).detach();
  if (finished.wait_for(limit) != std::future_status::ready) {
    ADD_FAILURE() << "not done within " << limit.count() << " s: it hangs";
    return;
  }
  finished.get();  // the body's exception, if any
}

TEST(FinishesWithin, FailsWhenTheBodyHangs) {
  // The helper can fail: a body still running after the limit is reported (and left running
  // until the flag stops it).
  auto stop = std::make_shared<std::atomic<bool>>(false);
  bool failed = false;
  {
    ::testing::TestPartResultArray results;
    {
      ::testing::ScopedFakeTestPartResultReporter reporter(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
      FinishesWithin(std::chrono::seconds(1), [stop] {
        while (!*stop) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      });
    }
    failed = results.size() == 1 && results.GetTestPartResult(0).failed();
  }
  *stop = true;
  EXPECT_TRUE(failed);
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

// Samples whose producer numbers their label sets (Sample::labels_id) cross batches with their
// labels copied only when they change: each still reaches the consumer with its own labels.
TEST(SinkThread, SamplesWithTheLabelsOfTheOneBeforeGetThem) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    Profile p = LargeProfile(seed);
    // Runs of 37 samples with one sample's labels, which cross the batches' bounds, numbered.
    uint64_t id = 0;
    for (size_t i = 0; i < p.samples.size(); ++i) {
      if (i % 37 == 0) {
        ++id;
      } else {
        p.samples[i].labels = p.samples[i - 1].labels;
      }
      p.samples[i].labels_id = id;
    }
    StringSink direct_text, threaded_text;
    CanonicalWriter direct(&direct_text), threaded(&threaded_text);
    EmitProfile(p, direct);
    ProduceOnThread([&](ProfileSink* sink) { EmitProfile(p, *sink); }, &threaded);
    ASSERT_EQ(threaded_text.text(), direct_text.text()) << "seed " << seed;
  }
}

// Label sets that take turns sample by sample (a perf recording's threads), numbered with ids
// that share slots of the consumer's and the writers' caches (1 and 65 modulo 64): every sample
// gets its own set's labels, through a thread or not, as when no set is numbered.
TEST(SinkThread, LabelSetsTakingTurnsKeepTheirLabels) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    Profile p = LargeProfile(seed);
    const std::vector<uint64_t> ids = {1, 65, 2, 129, 3, 66, 1, 1, 4};
    std::vector<std::vector<Label>> sets(ids.size());
    for (size_t s = 0; s < ids.size(); ++s) {
      sets[s] = {Label::String("comm", "thread " + std::to_string(ids[s])),
                 Label::Number("tid", static_cast<int64_t>(ids[s]))};
    }
    Profile unnumbered = p;
    for (size_t i = 0; i < p.samples.size(); ++i) {
      // Every 5000 samples, new ids for the same sets (as the perf.data reader numbers a
      // renamed thread's set anew): slots then hold sets under ids no longer used.
      const size_t turn = (i * 7 + i / 1000) % ids.size();
      p.samples[i].labels = sets[turn];
      p.samples[i].labels_id = ids[turn] + 1000 * (i / 5000);
      unnumbered.samples[i].labels = sets[turn];
      unnumbered.samples[i].labels_id = 0;
    }
    StringSink expected_text, direct_text, threaded_text;
    CanonicalWriter expected(&expected_text), direct(&direct_text), threaded(&threaded_text);
    EmitProfile(unnumbered, expected);
    EmitProfile(p, direct);
    ProduceOnThread([&](ProfileSink* sink) { EmitProfile(p, *sink); }, &threaded);
    ASSERT_EQ(direct_text.text(), expected_text.text()) << "seed " << seed;
    ASSERT_EQ(threaded_text.text(), expected_text.text()) << "seed " << seed;
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
  FinishesWithin(std::chrono::seconds(10), [] {
    CountingSink counting(5000);
    const auto produce = [](ProfileSink* sink) {
      sink->OnHeader(ProfileHeader());
      Sample sample;
      while (true) sink->OnSample(sample);  // only cancelling ends it
    };
    EXPECT_THROW(ProduceOnThread(produce, &counting), std::runtime_error);
    EXPECT_EQ(counting.samples(), 5000u);
  });
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
  FinishesWithin(std::chrono::seconds(10), [] {
    BackgroundProducer producer([](ProfileSink* sink) {
      Sample sample;
      while (true) sink->OnSample(sample);
    });
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

TEST(BackgroundProducer, ProducersReuseThreadsAndNeverWaitForEachOther) {
  // A fleet merge: hundreds of producers, one read ahead of the one delivered. They run on a
  // few kept threads, not one new thread each.
  // Threads counted by a thread-local flag: a thread id may be reused by a new thread.
  static std::atomic<int> threads{0};
  const auto make = [&](int n) {
    return std::make_unique<BackgroundProducer>([n](ProfileSink* sink) {
      static thread_local bool counted = false;
      if (!counted) ++threads, counted = true;
      Sample sample;
      sample.stack_id = static_cast<uint64_t>(n);
      for (int i = 0; i < 3000; ++i) sink->OnSample(sample);  // more than the batches in flight
    });
  };
  std::unique_ptr<BackgroundProducer> next = make(0);
  for (int n = 0; n < 300; ++n) {
    std::unique_ptr<BackgroundProducer> current = std::move(next);
    next = make(n + 1);
    CountingSink counting;
    current->Deliver(&counting);
    ASSERT_EQ(counting.samples(), 3000u);
  }
  next.reset();  // undelivered: cancelled
  EXPECT_LE(threads.load(), 8);
  // Several producers alive at once, each blocked until its consumer takes its records: each
  // has a thread (a queued one would never start, and its consumer would wait for ever).
  std::vector<std::unique_ptr<BackgroundProducer>> waiting;
  for (int n = 0; n < 12; ++n) waiting.push_back(make(n));
  for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) {
    CountingSink counting;
    (*it)->Deliver(&counting);
    EXPECT_EQ(counting.samples(), 3000u);
  }
}

}  // namespace
}  // namespace sink_thread_test
}  // namespace proftools
