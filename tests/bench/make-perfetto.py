#!/usr/bin/python3
"""Writes a Perfetto trace of about MB megabytes for tests/bench/bench-perfetto.sh: Android perf
samples (PerfSample packets, ~25 bytes each) of 16 threads on 8 CPUs over 3,000 interned
callstacks of 3 to 30 frames (2,000 functions), as traced_perf writes them; deterministic.

Usage: make-perfetto.py FILE MB"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "perfetto"))
from write_traces import (CLEARED, FLAGS, INTERNED, NEEDS, PERF_SAMPLE, SEQ, TIMESTAMP, frame,  # noqa: E402
                          interned, message, packed, packet)


def main():
    path, megabytes = sys.argv[1], int(sys.argv[2])
    random.seed(1)
    seq = 5
    names = [(i, "function_%d" % i) for i in range(1, 2001)]
    frames = [frame(i, i, 1, i * 16) for i in range(1, 2001)]
    callstacks = [(i, [random.randint(1, 2000) for _ in range(random.randint(3, 30))])
                  for i in range(1, 3001)]
    out = bytearray(packet((TIMESTAMP, 1), (SEQ, seq), (FLAGS, CLEARED | NEEDS), (INTERNED, interned(
        function_names=names, frames=frames, callstacks=callstacks,
        mappings=[((1, 1), (4, 0x400000), (5, 0x800000), (7, packed([1])))],
        mapping_paths=[(1, "/usr/bin/app")]))))
    chunk = bytearray()
    t = 1000
    for i in range(200000):
        t += 1000
        chunk += packet((TIMESTAMP, t), (SEQ, seq), (FLAGS, NEEDS), (PERF_SAMPLE, message(
            (1, i % 8), (2, 100), (3, 100 + i % 16), (4, random.randint(1, 3000)), (5, 2))))
    while len(out) < megabytes << 20:
        out += chunk
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
