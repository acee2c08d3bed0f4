#include "common/model/sink.h"

namespace proftools {

void EmitProfile(const Profile& profile, ProfileSink& sink) {
  sink.OnHeader(profile.header);
  for (const Mapping& mapping : profile.defs.mappings.items()) sink.OnMapping(mapping);
  for (const Function& function : profile.defs.functions.items()) sink.OnFunction(function);
  for (const Location& location : profile.defs.locations.items()) sink.OnLocation(location);
  for (const Stack& stack : profile.defs.stacks.items()) sink.OnStack(stack);
  for (const Sample& sample : profile.samples) sink.OnSample(sample);
  sink.OnEnd();
}

}  // namespace proftools
