// A producer of records on a thread of its own, its consumer on the caller's: two cores for one
// stream of records.
//
// ProduceOnThread runs `produce` (a reader, say) on a new thread, writing into a sink that
// copies each record into batches; the calling thread takes the batches in order and delivers
// their records to `sink`. The records and their order are exactly those `produce(sink)` would
// deliver, so the output does not depend on the threads' timing. A few batches circulate
// (bounded memory: the producer waits when the consumer is behind). An exception of either side
// stops both: the consumer first delivers what was produced before the producer's exception,
// then rethrows it; the consumer's own exception cancels the producer and is rethrown once the
// thread has ended.
#ifndef PROFTOOLS_COMMON_MODEL_SINK_THREAD_H_
#define PROFTOOLS_COMMON_MODEL_SINK_THREAD_H_

#include <functional>
#include <memory>

#include "common/model/sink.h"

namespace proftools {

void ProduceOnThread(const std::function<void(ProfileSink*)>& produce, ProfileSink* sink);

// ProduceOnThread in two steps, so that a producer can start before its records are wanted
// (prof-merge reads the next input while it merges this one): the constructor starts `produce`
// on its thread, Deliver (once, on the consumer's thread) hands its records to `sink` as
// ProduceOnThread does. Destroyed without Deliver, it cancels the producer and waits for it.
class BackgroundProducer {
 public:
  explicit BackgroundProducer(std::function<void(ProfileSink*)> produce);
  ~BackgroundProducer();
  BackgroundProducer(const BackgroundProducer&) = delete;
  BackgroundProducer& operator=(const BackgroundProducer&) = delete;
  void Deliver(ProfileSink* sink);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_SINK_THREAD_H_
