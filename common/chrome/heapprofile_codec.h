// V8's sampling heap profile (`node --heap-prof`'s Heap.*.heapprofile, DevTools' "Allocation
// sampling" saved as .heapprofile, the HeapProfiler.SamplingHeapProfile of the DevTools
// protocol) as the registry sees it: a `head` tree of nodes (callFrame, selfSize, id, children
// nested inside their parent) and `samples` ({size, nodeId, ordinal}).
//
// Read as one sample per entry of `samples`, in `ordinal` order (the order V8 took them), its
// stack its node's path from the root, its values `samples/count` (1: one sampled allocation)
// and `space/bytes` (the sample's `size`: the bytes V8 estimates the sampled allocation stands
// for, its object's size times the number of allocations one sample stands for at the sampling
// interval). Without samples (profiles written before V8 had them), one sample per node with a
// `selfSize`, whose value is that size and whose type is `space/bytes` alone. No times: the
// format has none. The tree is walked without recursion (100,000 levels are fine).
#ifndef PROFTOOLS_COMMON_CHROME_HEAPPROFILE_CODEC_H_
#define PROFTOOLS_COMMON_CHROME_HEAPPROFILE_CODEC_H_

#include <string_view>

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "heapprofile", whole input, no converter of its own.
extern const ReaderSpec kHeapProfileReader;

// kCertain when `head` is a JSON object with the keys "head", "callFrame" and "selfSize";
// kLikely with "head" and "callFrame".
int SniffHeapProfile(std::string_view head, bool text);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_CHROME_HEAPPROFILE_CODEC_H_
