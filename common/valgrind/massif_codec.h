// valgrind massif's output (massif.out.PID) as a profile. What a profile gets from a file:
// - one source of type "massif" (its uri the path);
// - the value type `inuse_space` (bytes): the heap tree of massif's peak snapshot (else of its
//   last detailed one), the default type; and one type `snapshot_N` (bytes) per detailed
//   snapshot N, in the file's order, its heap tree's bytes;
// - a stack per node of the trees with bytes of its own (a node's bytes less its children's):
//   the allocation site innermost, its callers outward, as massif's trees nest them;
//   massif's root, "(heap allocation functions) malloc/new/new[], ...", is not a frame; a
//   node below massif's threshold is the frame "[in N places, below massif's threshold ...]";
// - meta: massif.desc, massif.cmd, massif.time_unit, massif.peak (the snapshot inuse_space is),
//   and massif.snapshot_N for each detailed snapshot: its time and heap sizes as massif wrote
//   them (mem_heap_extra_B and mem_stacks_B have no stacks, so they are kept there only).
// The snapshots without trees (ms_print's graph) are not samples: nothing attributes their
// bytes to stacks.
#ifndef PROFTOOLS_COMMON_VALGRIND_MASSIF_CODEC_H_
#define PROFTOOLS_COMMON_VALGRIND_MASSIF_CODEC_H_

#include "common/model/reader_spec.h"

namespace proftools {

// The registry's entry: name "massif", two passes over the input mapped (a type per detailed
// snapshot is known only at the end; a pipe is spooled first).
extern const ReaderSpec kMassifReader;

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_VALGRIND_MASSIF_CODEC_H_
