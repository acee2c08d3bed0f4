// The streaming interface between readers, checkers, transformations and writers.
//
// A producer calls OnHeader exactly once, then body records in define-before-use order (every
// id a record refers to was delivered earlier), then OnEnd. Records passed by reference are
// only valid during the call: a sink that keeps one copies it.
#ifndef PROFTOOLS_COMMON_MODEL_SINK_H_
#define PROFTOOLS_COMMON_MODEL_SINK_H_

#include "common/model/definitions.h"
#include "common/model/model.h"

namespace proftools {

class ProfileSink {
 public:
  virtual ~ProfileSink() = default;
  virtual void OnHeader(const ProfileHeader& header) = 0;
  // A hint, not a record: it may come after OnHeader, before the definitions it counts, and
  // more or fewer may come. A sink that keeps definitions makes room for them at once (a call
  // graph's 100,000 functions and 231,000 stacks grew each table that kept them by doubling:
  // copies, and fresh pages for the kernel to zero). Sinks that pass records on pass it on
  // where they can; one lost costs that growth, no more.
  virtual void OnExpect(const ExpectedDefinitions&) {}
  virtual void OnMapping(const Mapping& mapping) = 0;
  virtual void OnFunction(const Function& function) = 0;
  virtual void OnLocation(const Location& location) = 0;
  virtual void OnStack(const Stack& stack) = 0;
  virtual void OnSample(const Sample& sample) = 0;
  virtual void OnEnd() = 0;
};

// A sink that does nothing: for readers run only for their checker's verdicts.
class DiscardingSink : public ProfileSink {
 public:
  void OnHeader(const ProfileHeader&) override {}
  void OnMapping(const Mapping&) override {}
  void OnFunction(const Function&) override {}
  void OnLocation(const Location&) override {}
  void OnStack(const Stack&) override {}
  void OnSample(const Sample&) override {}
  void OnEnd() override {}
};

// A sink that keeps the header and every definition, for consumers that need to look them up
// while samples stream past. Memory grows with definitions, not with samples.
class DefinitionKeepingSink : public ProfileSink {
 public:
  void OnHeader(const ProfileHeader& header) override { header_ = header; }
  void OnMapping(const Mapping& mapping) override { defs_.mappings.Add(mapping); }
  void OnFunction(const Function& function) override { defs_.functions.Add(function); }
  void OnLocation(const Location& location) override { defs_.locations.Add(location); }
  void OnStack(const Stack& stack) override { defs_.stacks.Add(stack); }
  void OnEnd() override {}
  void OnExpect(const ExpectedDefinitions& expected) override {
    defs_.functions.Reserve(expected.functions);
    defs_.locations.Reserve(expected.locations);
    defs_.stacks.Reserve(expected.stacks);
  }

  const ProfileHeader& header() const { return header_; }
  const Definitions& defs() const { return defs_; }

 protected:
  ProfileHeader header_;
  Definitions defs_;
};

// Collects a whole Profile (including every sample).
class ProfileBuilder : public DefinitionKeepingSink {
 public:
  void OnSample(const Sample& sample) override { samples_.push_back(sample); }
  Profile Take() {
    Profile profile;
    profile.header = std::move(header_);
    profile.defs = std::move(defs_);
    profile.samples = std::move(samples_);
    return profile;
  }

 private:
  std::vector<Sample> samples_;
};

// Replays a whole profile into a sink: header, then all mappings, functions, locations and
// stacks in table order, then the samples. That order is define-before-use for any profile
// whose references resolve.
void EmitProfile(const Profile& profile, ProfileSink& sink);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_SINK_H_
