#include "common/model/sink_thread.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace proftools {
namespace {

// kSampleKnownLabels: a sample whose label set (Sample::labels_id) the consumer holds from an
// earlier sample, not copied into the batch.
enum class Kind : uint8_t {
  kHeader,
  kMapping,
  kFunction,
  kLocation,
  kStack,
  kSample,
  kSampleKnownLabels,
  kEnd
};

// The label sets the consumer of a channel keeps, by labels_id modulo this, so that a producer
// whose samples take turns among a few sets (the threads of a perf recording, in time order)
// copies each set once, not at every change: the producer's side knows which set each slot
// holds, since both sides see the samples in the same order.
constexpr size_t kLabelSlots = 64;

// Records in order: their kinds, and each kind's records in a vector whose elements (and their
// vectors and strings) keep their capacity from batch to batch.
struct Batch {
  std::vector<Kind> kinds;
  ProfileHeader header;
  std::vector<Mapping> mappings;
  std::vector<Function> functions;
  std::vector<Location> locations;
  std::vector<Stack> stacks;
  std::vector<Sample> samples;
  size_t counts[5] = {};  // used elements of mappings .. samples
  size_t weight = 0;      // roughly the bytes held, to bound a batch

  void Clear() {
    kinds.clear();
    for (size_t& count : counts) count = 0;
    weight = 0;
  }
  template <typename T>
  T& Next(std::vector<T>* records, size_t* count) {
    if (*count == records->size()) records->emplace_back();
    return (*records)[(*count)++];
  }
};

// Thrown on the producer's thread when the consumer has given up.
struct Cancelled {};

constexpr size_t kBatchRecords = 1024;
constexpr size_t kBatchWeight = size_t{1} << 20;
// In flight at most: the producer waits beyond. A fleet's small profile (about six batches) is
// read whole ahead of its turn without waiting.
constexpr size_t kBatches = 8;

// Batches kept from one channel to the next: a merge of a fleet reads hundreds of small inputs,
// each on a channel of its own, and building and freeing every batch's vectors and strings
// again for each input was a twentieth of the merge. At most kPooled are kept.
class BatchPool {
 public:
  static BatchPool& Instance() {
    // Never destroyed: freeing every kept batch's records one by one at exit was a millisecond
    // of a fleet merge's 140, after its output was written.
    static BatchPool* const pool = new BatchPool;
    return *pool;
  }
  std::unique_ptr<Batch> Take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!batches_.empty()) {
        std::unique_ptr<Batch> batch = std::move(batches_.back());
        batches_.pop_back();
        return batch;
      }
    }
    return std::make_unique<Batch>();
  }
  void Give(std::deque<std::unique_ptr<Batch>>* batches) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::unique_ptr<Batch>& batch : *batches) {
      if (batches_.size() < kPooled) batches_.push_back(std::move(batch));
    }
    batches->clear();
  }

 private:
  // Three channels at once: prof-merge reads up to two inputs ahead of the one it merges.
  static constexpr size_t kPooled = 3 * kBatches;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Batch>> batches_;
};

class Channel {
 public:
  Channel() {
    for (size_t i = 0; i < kBatches; ++i) free_.push_back(BatchPool::Instance().Take());
  }
  ~Channel() {
    BatchPool::Instance().Give(&free_);
    BatchPool::Instance().Give(&full_);
  }
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Producer side.
  std::unique_ptr<Batch> TakeFree() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || !free_.empty(); });
    if (cancelled_) throw Cancelled();
    std::unique_ptr<Batch> batch = std::move(free_.front());
    free_.pop_front();
    batch->Clear();
    return batch;
  }
  void PutFull(std::unique_ptr<Batch> batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    full_.push_back(std::move(batch));
    changed_.notify_all();
  }
  void Finish(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
    error_ = error;
    changed_.notify_all();
  }

  // Consumer side: the next full batch, or null when the producer has finished.
  std::unique_ptr<Batch> TakeFull() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return finished_ || !full_.empty(); });
    if (full_.empty()) return nullptr;
    std::unique_ptr<Batch> batch = std::move(full_.front());
    full_.pop_front();
    return batch;
  }
  void PutFree(std::unique_ptr<Batch> batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(batch));
    changed_.notify_all();
  }
  void Cancel() {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
    changed_.notify_all();
  }
  std::exception_ptr error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> free_, full_;
  bool finished_ = false;
  bool cancelled_ = false;
  std::exception_ptr error_;
};

// The producer's sink: copies records into the current batch.
class BatchingSink : public ProfileSink {
 public:
  explicit BatchingSink(Channel* channel) : channel_(channel), batch_(channel->TakeFree()) {}
  ~BatchingSink() override {
    if (batch_ != nullptr) channel_->PutFree(std::move(batch_));  // back to the pool with the rest
  }
  BatchingSink(const BatchingSink&) = delete;
  BatchingSink& operator=(const BatchingSink&) = delete;

  void OnHeader(const ProfileHeader& header) override {
    batch_->header = header;
    Add(Kind::kHeader, 1024);
  }
  void OnMapping(const Mapping& m) override {
    Next(&batch_->mappings, 0) = m;
    Add(Kind::kMapping, 64 + m.file.size() + m.build_id.size());
  }
  void OnFunction(const Function& f) override {
    Next(&batch_->functions, 1) = f;
    Add(Kind::kFunction, 64 + f.name.size() + f.system_name.size() + f.file.size());
  }
  void OnLocation(const Location& l) override {
    Location& copy = Next(&batch_->locations, 2);
    copy.id = l.id;
    copy.mapping_id = l.mapping_id;
    copy.address = l.address;
    copy.is_folded = l.is_folded;
    copy.lines.assign(l.lines.begin(), l.lines.end());
    Add(Kind::kLocation, 64 + 24 * l.lines.size());
  }
  void OnStack(const Stack& s) override {
    Stack& copy = Next(&batch_->stacks, 3);
    copy.id = s.id;
    copy.location_ids.assign(s.location_ids.begin(), s.location_ids.end());
    Add(Kind::kStack, 32 + 8 * s.location_ids.size());
  }
  void OnSample(const Sample& s) override {
    Sample& copy = Next(&batch_->samples, 4);
    copy.source_id = s.source_id;
    copy.stack_id = s.stack_id;
    copy.time_nanos = s.time_nanos;
    copy.duration_nanos = s.duration_nanos;
    copy.values.assign(s.values.begin(), s.values.end());
    copy.labels_id = s.labels_id;
    // Copying a fleet's labels (their strings) for every sample was a twentieth of its merge.
    if (s.labels_id != 0) {
      uint64_t& held = held_labels_[s.labels_id % kLabelSlots];
      if (held == s.labels_id) {
        Add(Kind::kSampleKnownLabels, 64 + 8 * s.values.size());
        return;
      }
      held = s.labels_id;  // the consumer keeps this sample's
    }
    copy.labels.assign(s.labels.begin(), s.labels.end());
    Add(Kind::kSample, 64 + 8 * s.values.size() + 64 * s.labels.size());
  }
  void OnEnd() override {
    Add(Kind::kEnd, 0);
    Flush();
  }

  // Hands over what is batched (at the end, or before an error is passed on).
  void Flush() {
    if (batch_ == nullptr || batch_->kinds.empty()) return;
    channel_->PutFull(std::move(batch_));
  }

 private:
  template <typename T>
  T& Next(std::vector<T>* records, int index) {
    return batch_->Next(records, &batch_->counts[index]);
  }
  void Add(Kind kind, size_t weight) {
    batch_->kinds.push_back(kind);
    batch_->weight += weight;
    if (batch_->kinds.size() >= kBatchRecords || batch_->weight >= kBatchWeight) {
      channel_->PutFull(std::move(batch_));
      batch_ = channel_->TakeFree();
    }
  }

  Channel* channel_;
  std::unique_ptr<Batch> batch_;
  uint64_t held_labels_[kLabelSlots] = {};  // the labels_id of the set in each consumer slot
};

// The consumer's side of a channel: its batches' records to `sink`, in order.
class Delivery {
 public:
  explicit Delivery(ProfileSink* sink) : sink_(sink) {}
  void Deliver(Batch& batch);

 private:
  ProfileSink* sink_;
  // The label sets seen (kLabelSlots): a sample of kSampleKnownLabels gets its set by a swap of
  // vectors, and gives it back after.
  std::vector<Label> slots_[kLabelSlots];
};

void Delivery::Deliver(Batch& batch) {
  ProfileSink* const sink = sink_;
  size_t next[5] = {};
  for (Kind kind : batch.kinds) {
    switch (kind) {
      case Kind::kHeader:
        sink->OnHeader(batch.header);
        break;
      case Kind::kMapping:
        sink->OnMapping(batch.mappings[next[0]++]);
        break;
      case Kind::kFunction:
        sink->OnFunction(batch.functions[next[1]++]);
        break;
      case Kind::kLocation:
        sink->OnLocation(batch.locations[next[2]++]);
        break;
      case Kind::kStack:
        sink->OnStack(batch.stacks[next[3]++]);
        break;
      case Kind::kSample: {
        Sample& sample = batch.samples[next[4]++];
        sink->OnSample(sample);
        // Kept by a swap: the batch's sample takes the slot's old set, which no one reads (the
        // producer assigns a sample's labels anew when it copies them).
        if (sample.labels_id != 0) sample.labels.swap(slots_[sample.labels_id % kLabelSlots]);
        break;
      }
      case Kind::kSampleKnownLabels: {
        Sample& sample = batch.samples[next[4]++];
        std::vector<Label>& slot = slots_[sample.labels_id % kLabelSlots];
        sample.labels.swap(slot);
        sink->OnSample(sample);
        sample.labels.swap(slot);
        break;
      }
      case Kind::kEnd:
        sink->OnEnd();
        break;
    }
  }
}

// Threads kept for the producers: a merge of a fleet starts one producer per input, and creating
// a thread (its stack mapped, guarded, and unmapped again) for each of hundreds of small inputs
// was a fixed cost per input. A producer runs on an idle thread, or on a new one when none is
// idle: never queued behind another producer, which may be waiting for its consumer. Idle
// threads wait for the next producer until the program ends.
class ProducerThreads {
 public:
  static ProducerThreads& Instance() {
    static ProducerThreads threads;
    return threads;
  }
  void Run(std::function<void()> task) {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    // Each queued task has an idle thread of its own to take it, or gets a new one.
    if (tasks_.size() > idle_) {
      threads_.emplace_back([this] { Loop(); });
    } else {
      wake_.notify_one();
    }
  }

 private:
  ~ProducerThreads() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      wake_.notify_all();
    }
    for (std::thread& thread : threads_) thread.join();
  }
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      ++idle_;
      wake_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      --idle_;
      if (tasks_.empty()) return;  // stopping
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      task = nullptr;  // what it holds goes before the thread waits again
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  size_t idle_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

struct BackgroundProducer::State {
  std::function<void(ProfileSink*)> produce;
  Channel channel;
  // Set by the producer's thread when it has let go of this state (the thread lives on).
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  bool delivered = false;

  void AwaitDone() {
    std::unique_lock<std::mutex> lock(mutex);
    done_changed.wait(lock, [&] { return done; });
  }
};

BackgroundProducer::BackgroundProducer(std::function<void(ProfileSink*)> produce)
    : state_(std::make_unique<State>()) {
  state_->produce = std::move(produce);
  State* state = state_.get();
  ProducerThreads::Instance().Run([state] {
    std::exception_ptr error;
    try {
      BatchingSink batching(&state->channel);
      try {
        state->produce(&batching);
      } catch (...) {
        batching.Flush();  // what came before the error is delivered first, as without a thread
        throw;
      }
      batching.Flush();  // a producer need not end with OnEnd
    } catch (const Cancelled&) {
      // The consumer has its own exception to report, or does not want the records.
    } catch (...) {
      error = std::current_exception();
    }
    state->channel.Finish(error);
    // The last touch of the state: once `done` is seen, the consumer may free it.
    std::lock_guard<std::mutex> lock(state->mutex);
    state->done = true;
    state->done_changed.notify_all();
  });
}

BackgroundProducer::~BackgroundProducer() {
  if (!state_->delivered) {
    state_->channel.Cancel();
    state_->AwaitDone();
  }
}

void BackgroundProducer::Deliver(ProfileSink* sink) {
  Channel& channel = state_->channel;
  state_->delivered = true;
  try {
    Delivery delivery(sink);
    while (std::unique_ptr<Batch> batch = channel.TakeFull()) {
      delivery.Deliver(*batch);
      channel.PutFree(std::move(batch));
    }
  } catch (...) {
    channel.Cancel();
    state_->AwaitDone();
    throw;
  }
  state_->AwaitDone();
  if (std::exception_ptr error = channel.error()) std::rethrow_exception(error);
}

void ProduceOnThread(const std::function<void(ProfileSink*)>& produce, ProfileSink* sink) {
  BackgroundProducer(produce).Deliver(sink);
}

}  // namespace proftools
